import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Role } from '@shared/roles';
import { AppProvider, createQueryClient } from '@/app/provider';
import { tokenStore } from '@/lib/api';
import { currentUser, fakeServer } from '@/test/fake-server';
import { checkLogoFile } from '../api/logo-api';
import { HeaderLogo } from './HeaderLogo';
import { LogoUploader } from './LogoUploader';

vi.setConfig({ testTimeout: 20_000 });

const png = (size = 100) => new File([new Uint8Array(size)], 'logo.png', { type: 'image/png' });

function renderUploader(routes: Parameters<typeof fakeServer>[0]) {
  tokenStore.set('test-token');
  const server = fakeServer({ 'GET api/users/current': { body: currentUser([Role.SITE_ADMIN]) }, ...routes });
  const reload = vi.fn();
  render(
    <AppProvider queryClient={createQueryClient()}>
      <LogoUploader reload={reload} />
    </AppProvider>,
  );
  const input = screen.getByLabelText('Logo file') as HTMLInputElement;
  const choose = (file: File) => fireEvent.change(input, { target: { files: [file] } });
  return { server, reload, input, choose };
}

describe('checkLogoFile (spec 001 §5, §9: image only, max 10 MB)', () => {
  it('accepts PNG, JPEG, GIF and WebP up to 10 MB, refuses the rest', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/gif', 'image/webp'])
      expect(checkLogoFile(new File(['x'], 'a', { type }))).toBeNull();
    for (const type of ['image/svg+xml', 'application/pdf', 'text/html', ''])
      expect(checkLogoFile(new File(['x'], 'a', { type }))).toBe('The logo must be an image (PNG, JPEG, GIF or WebP).');
    const big = { name: 'big.png', type: 'image/png', size: 10 * 1024 * 1024 + 1 } as File;
    expect(checkLogoFile(big)).toBe('The logo must not be larger than 10 MB.');
    expect(checkLogoFile({ name: 'max.png', type: 'image/png', size: 10 * 1024 * 1024 } as File)).toBeNull();
  });
});

describe('LogoUploader (spec 001 §4, §8)', () => {
  it('takes the three steps in order, says so, then reloads the page', async () => {
    const { server, reload, choose } = renderUploader({
      'POST api/logo/get-upload-url': {
        body: { uploadUrl: '/api/logo/upload/signed.token', logoPath: '/files/logos/abc.png' },
      },
      'PUT api/logo/upload/signed.token': { body: { success: true, logoPath: '/files/logos/abc.png' } },
      'POST api/logo/save': { body: { success: true, logoPath: '/files/logos/abc.png' } },
    });
    const upload = screen.getByRole('button', { name: 'Upload logo' });
    expect(upload).toBeDisabled();
    choose(png(123));
    expect(upload).toBeEnabled();
    fireEvent.click(upload);
    expect(await screen.findByText('The logo has been successfully uploaded')).toBeInTheDocument();
    const steps = server.calls.filter((c) => c.path.startsWith('api/logo')).map((c) => `${c.method} ${c.path}`);
    expect(steps).toEqual(['POST api/logo/get-upload-url', 'PUT api/logo/upload/signed.token', 'POST api/logo/save']);
    expect(server.callsTo('POST', 'api/logo/get-upload-url')[0].body).toEqual({
      fileName: 'logo.png',
      fileSize: 123,
      mimeType: 'image/png',
    });
    expect(server.callsTo('PUT', 'api/logo/upload/signed.token')[0].rawBody).toBeInstanceOf(File);
    expect(server.callsTo('POST', 'api/logo/save')[0].body).toEqual({ logoPath: '/files/logos/abc.png' });
    await waitFor(() => expect(reload).toHaveBeenCalled(), { timeout: 4000 });
  });

  it("shows the server's message on failure and clears the chooser", async () => {
    const { input, reload, choose } = renderUploader({
      'POST api/logo/get-upload-url': { body: { uploadUrl: '/api/logo/upload/t', logoPath: '/files/logos/abc.png' } },
      'PUT api/logo/upload/t': {
        status: 400,
        body: { success: false, message: 'The logo must be an image (PNG, JPEG, GIF or WebP).' },
      },
    });
    choose(png());
    fireEvent.click(screen.getByRole('button', { name: 'Upload logo' }));
    expect(await screen.findByText('The logo must be an image (PNG, JPEG, GIF or WebP).')).toBeInTheDocument();
    expect(input.value).toBe('');
    expect(screen.getByRole('button', { name: 'Upload logo' })).toBeDisabled();
    expect(reload).not.toHaveBeenCalled();
  });

  it("falls back to 'Failed to upload logo' when the server gives no message", async () => {
    const { choose } = renderUploader({ 'POST api/logo/get-upload-url': { status: 500, body: { success: false } } });
    choose(png());
    fireEvent.click(screen.getByRole('button', { name: 'Upload logo' }));
    expect(await screen.findByText('Failed to upload logo')).toBeInTheDocument();
  });

  it('refuses a non-image or an oversized file in the browser, before any call, and clears the chooser', async () => {
    const { server, input, choose } = renderUploader({});
    choose(new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' }));
    expect(await screen.findByText('The logo must be an image (PNG, JPEG, GIF or WebP).')).toBeInTheDocument();
    expect(input.value).toBe('');
    const big = new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' });
    choose(big);
    expect(await screen.findByText('The logo must not be larger than 10 MB.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload logo' })).toBeDisabled();
    expect(server.calls.filter((c) => c.path.startsWith('api/logo'))).toHaveLength(0);
  });
});

describe('HeaderLogo (spec 001 §7 Read logo)', () => {
  function renderLogo(logoPath: string | null, signedIn = true) {
    if (signedIn) tokenStore.set('test-token');
    const server = fakeServer({
      'GET api/users/current': { body: currentUser([Role.VIEWER]) },
      'GET api/logo/byMasterAccountId': { body: { logoPath } },
    });
    render(
      <AppProvider queryClient={createQueryClient()}>
        <HeaderLogo />
      </AppProvider>,
    );
    return server;
  }

  it("shows the organisation's logo once signed in", async () => {
    renderLogo('/files/logos/abc.png');
    await waitFor(() => expect(screen.getByTestId('header-logo')).toHaveAttribute('src', '/files/logos/abc.png'));
  });

  it('falls back to the product logo when the organisation has none', async () => {
    const server = renderLogo(null);
    await waitFor(() => expect(server.callsTo('GET', 'api/logo/byMasterAccountId')).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByTestId('header-logo')).toHaveAttribute('src', '/logo.svg');
  });

  it('does not ask for it when signed out', async () => {
    const server = renderLogo('/files/logos/abc.png', false);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByTestId('header-logo')).toHaveAttribute('src', '/logo.svg');
    expect(server.callsTo('GET', 'api/logo/byMasterAccountId')).toHaveLength(0);
  });

  it('goes back to the product logo when the file cannot be loaded', async () => {
    renderLogo('/files/logos/gone.png');
    await waitFor(() => expect(screen.getByTestId('header-logo')).toHaveAttribute('src', '/files/logos/gone.png'));
    fireEvent.error(screen.getByTestId('header-logo'));
    expect(screen.getByTestId('header-logo')).toHaveAttribute('src', '/logo.svg');
  });
});

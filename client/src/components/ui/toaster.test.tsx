import { ChakraProvider } from '@chakra-ui/react';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { system } from '@/app/theme';
import { Toaster, toaster } from './toaster';

describe('toaster (spec 001 §2.7, §9)', () => {
  it('toasts appear top right on the base z-index 5000, the theme token', async () => {
    render(
      <ChakraProvider value={system}>
        <Toaster />
      </ChakraProvider>,
    );
    act(() => {
      toaster.create({ title: 'Saved', type: 'success' });
    });
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    const group = screen.getByTestId('toaster');
    expect(system.token('zIndex.toast')).toBe(5000);
    expect(group.style.zIndex).toBe('5000');
    expect(group).toHaveAttribute('data-placement', 'top-end');
  });
});

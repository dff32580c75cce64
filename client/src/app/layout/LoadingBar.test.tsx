import { act, screen, waitFor } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { LoadingBar } from './LoadingBar';
import { renderAt } from '@/test/shell';

describe('Loading bar (spec 001 §9)', () => {
  it('shows in #29d while a call is under way and goes away after', async () => {
    const queryClient = new QueryClient();
    renderAt(<LoadingBar />, '/', { queryClient });
    expect(screen.queryByTestId('loading-bar')).toBeNull();
    let finish: (v: unknown) => void = () => {};
    act(() => {
      void queryClient.fetchQuery({ queryKey: ['slow'], queryFn: () => new Promise((r) => (finish = r)) });
    });
    const bar = await screen.findByTestId('loading-bar');
    expect(bar).toHaveStyle({ backgroundColor: '#29d' });
    await act(async () => finish(1));
    await waitFor(() => expect(screen.queryByTestId('loading-bar')).toBeNull());
  });
});

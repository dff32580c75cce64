import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { AVAILABILITY_MESSAGES } from '@shared/messages';
import { api } from '@/lib/api';
import { serviceAvailability } from '@/lib/service-availability';
import { fakeServer, NO_SESSION } from '@/test/fake-server';
import { renderAt } from '@/test/render';

afterEach(() => serviceAvailability.report(false));

const UNAVAILABLE = {
  status: 503,
  body: {
    success: false,
    statusCode: 503,
    code: 'SERVICE_UNAVAILABLE',
    message: AVAILABILITY_MESSAGES.SERVICE_UNAVAILABLE,
  },
};

/** A page that sends three writes at once (never retried), then a read. */
function Page() {
  const [result, setResult] = useState('');
  const save = () =>
    void Promise.allSettled([1, 2, 3].map((i) => api.post(`api/feedback`, { i }))).then((r) =>
      setResult(r.map((x) => x.status).join(',')),
    );
  const read = () => void api.get('api/announcements').then(() => setResult('read'));
  return (
    <div>
      <button onClick={save}>save</button>
      <button onClick={read}>read</button>
      <output data-testid="result">{result}</output>
    </div>
  );
}

describe('the service-unavailable notice', () => {
  it('shows one calm toast for any number of refused calls, and goes once the server answers again', async () => {
    const f = fakeServer({}, { unmatched: NO_SESSION });
    f.respondWith('POST', '/api/feedback', () => UNAVAILABLE);
    f.respond('GET', '/api/announcements', 200, []);
    renderAt(<Page />);

    fireEvent.click(screen.getByText('save'));
    await waitFor(() => expect(screen.getByTestId('result')).toHaveTextContent('rejected,rejected,rejected'));
    expect(await screen.findAllByText(AVAILABILITY_MESSAGES.RETRYING)).toHaveLength(1);
    expect(screen.getAllByTestId('toast')).toHaveLength(1);
    expect(f.calls).toHaveLength(3); // writes are not sent again

    fireEvent.click(screen.getByText('read'));
    await waitFor(() => expect(screen.getByTestId('result')).toHaveTextContent('read'));
    await waitFor(() => expect(screen.queryByText(AVAILABILITY_MESSAGES.RETRYING)).not.toBeInTheDocument());
  });

  it('shows at once when mounted during an outage', async () => {
    fakeServer({}, { unmatched: NO_SESSION });
    act(() => serviceAvailability.report(true));
    renderAt(<div />);
    expect(await screen.findByText(AVAILABILITY_MESSAGES.RETRYING)).toBeInTheDocument();
  });
});

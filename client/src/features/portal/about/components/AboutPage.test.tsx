import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderAt } from '@/test/shell';
import { fakeServer } from '@/test/fake-server';
import { AboutPage, firstCompleted } from './AboutPage';

const entry = (status: string, version: string, startDateTime: string) => ({
  id: Number(version.replace(/\D/g, '')) || 1,
  eventType: 'x',
  status,
  version,
  message: `m ${version}`,
  startDateTime,
  modified: startDateTime,
});

describe('About page (spec 001 §2.15, §4)', () => {
  it('shows only the first completed entry per event type, with a medium en-AU date; N/A when there is none', async () => {
    const calls = stubSystemInformation();
    renderAt(<AboutPage />, '/about');
    const db = await screen.findByTestId('about-data-sync-update');
    expect(await within(db).findByText('v2.0')).toBeInTheDocument();
    expect(within(db).getByTestId('about-message')).toHaveTextContent('m v2.0');
    expect(within(db).getByTestId('about-date')).toHaveTextContent('2 Mar 2026');
    expect(within(db).getByText('Corporate Actions Database')).toBeInTheDocument();
    const com = screen.getByTestId('about-com-engine');
    expect(within(com).getByText('COM Engine')).toBeInTheDocument();
    expect(within(com).getByTestId('about-version')).toHaveTextContent('N/A');
    expect(within(com).getByTestId('about-message')).toHaveTextContent('N/A');
    expect(within(com).getByTestId('about-date')).toHaveTextContent('N/A');
    expect(calls.map((c) => c.body)).toEqual(
      expect.arrayContaining([
        { eventType: 'data-sync-update', asc: false },
        { eventType: 'com-engine', asc: false },
      ]),
    );
  });

  it('firstCompleted skips entries in progress, failed or scheduled', () => {
    const list = [
      entry('inProgress', 'v4', '2026-03-04T00:00:00Z'),
      entry('failed', 'v3', '2026-03-03T00:00:00Z'),
      entry('completed', 'v2', '2026-03-02T00:00:00Z'),
      entry('completed', 'v1', '2026-03-01T00:00:00Z'),
    ];
    expect(firstCompleted(list)?.version).toBe('v2');
    expect(firstCompleted([entry('scheduled', 'v9', '2026-03-04T00:00:00Z')])).toBeUndefined();
    expect(firstCompleted(undefined)).toBeUndefined();
  });
});

/** The fake server answering POST api/system-information/all by the requested event type. */
function stubSystemInformation() {
  return fakeServer({
    'POST api/system-information/all': (call) => ({
      body:
        (call.body as { eventType?: string } | undefined)?.eventType === 'data-sync-update'
          ? [
              entry('inProgress', 'v3.0', '2026-03-03T01:00:00Z'),
              entry('completed', 'v2.0', '2026-03-02T01:00:00Z'),
              entry('completed', 'v1.0', '2026-03-01T01:00:00Z'),
            ]
          : [entry('failed', 'v5.0', '2026-03-05T01:00:00Z')],
    }),
  }).calls;
}

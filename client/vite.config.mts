/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

const here = fileURLToPath(new URL('.', import.meta.url));
/** `npm run start:dev`: Vite serves the client and passes the server's paths on to the API on PORT. */
const apiTarget = `http://localhost:${process.env.PORT || 3000}`;

/**
 * The component tests that replace a module with vi.mock. Each runs in a module graph of its own; every other test
 * file shares its worker's graph (Chakra, React and the app's modules imported once per worker instead of once per
 * file), and test/setup.ts resets what a file leaves behind (the DOM, storage, cookies, toasts). Looked for only
 * when vitest reads this configuration, not for a build.
 */
const mockingTests = process.env.VITEST
  ? readdirSync(`${here}src`, { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.test\.tsx?$/.test(f) && readFileSync(`${here}src/${f}`, 'utf8').includes('vi.mock('))
      .map((f) => `src/${f.replaceAll('\\', '/')}`)
  : [];

export default defineConfig({
  root: here,
  plugins: [react()],
  resolve: {
    alias: {
      '@shared': fileURLToPath(new URL('../src/shared', import.meta.url)),
      '@': fileURLToPath(new URL('./src', import.meta.url)),
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        // The entry chunk keeps every module the page's entry needs, so /logIn hydrates from one script. Left to
        // itself rolldown moves the modules the entry shares with lazy chunks (the API client, the messages) into
        // chunks of their own, which the entry then fetches one round trip later (rolldown#10731). The group holds
        // the HTML entry, main.tsx and those modules, with what they import, in the entry's chunk.
        codeSplitting: {
          groups: [
            {
              name: 'index',
              test: (id: string) =>
                /[\\/]client[\\/](index\.html|src[\\/]main\.tsx|src[\\/]lib[\\/]api\.ts)$|[\\/]src[\\/]shared[\\/]messages\.ts$/.test(
                  id,
                ),
            },
          ],
        },
      },
    },
  },
  server: {
    port: Number(process.env.VITE_PORT || 5173),
    proxy: Object.fromEntries(
      ['/api', '/auth', '/mfa', '/refresh', '/callback', '/files', '/socket.io', '/oidc', '/.well-known'].map((p) => [
        p,
        { target: apiTarget, ws: p === '/socket.io' },
      ]),
    ),
  },
  test: {
    environment: 'jsdom',
    setupFiles: [fileURLToPath(new URL('./src/test/setup.ts', import.meta.url))],
    css: false,
    // A component test that waits for the UI has seconds, not a budget: on a loaded 2-core CI machine the
    // default 5 s timed out tests that were right (e.g. AnnouncementsPage 'E-Support publishes to one organisation').
    testTimeout: 30_000,
    // Every core: left to itself vitest keeps one for its own process, which is half a 2-core CI machine.
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        test: { name: 'shared-graph', isolate: false, include: ['src/**/*.test.{ts,tsx}'], exclude: mockingTests },
      },
      { extends: true, test: { name: 'own-graph', include: mockingTests } },
    ],
  },
});

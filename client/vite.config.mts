/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  plugins: [react()],
  resolve: { alias: { '@shared': fileURLToPath(new URL('../src/shared', import.meta.url)), '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: { outDir: 'dist', emptyOutDir: true, manifest: true, chunkSizeWarningLimit: 600 },
  server: {
    port: 5173,
    proxy: Object.fromEntries(['/api', '/auth', '/mfa', '/refresh', '/callback', '/files', '/socket.io'].map((p) => [p, { target: 'http://localhost:3000', ws: p === '/socket.io' }])),
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
  },
});

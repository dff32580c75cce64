// Quiet servers in tests; each test app gets its own DATA_DIR (see test-app.ts).
process.env.LOG_LEVEL = 'silent';

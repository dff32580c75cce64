import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { configureApp } from './configure-app';
import { APP_CONFIG } from '../platform/config/app-config.module';
import { AppConfig, ConfigError, loadConfig } from '../platform/config/env.validation';
import { handleShutdownSignals } from '../platform/shutdown/graceful-shutdown';

/** The server: configuration checked first (a bad variable is one line on stderr and exit 1), then Nest. */
export async function serve(): Promise<void> {
  try {
    loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
  // Nest's own messages are held until pino (LOG_LEVEL, JSON lines) takes over: see src/platform/logging.
  const app = await NestFactory.create<NestExpressApplication>(AppModule, { bufferLogs: true });
  const logger = app.get(Logger);
  app.useLogger(logger);
  configureApp(app);
  const config = app.get<AppConfig>(APP_CONFIG);
  handleShutdownSignals(app, config.shutdownGraceSeconds * 1000, logger);
  await app.listen(config.port);
  logger.log(`Serving on ${config.publicUrl} (port ${config.port}, data in ${config.dataDir})`, 'Main');
}

import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { configureApp } from './configure-app';
import { APP_CONFIG } from './config/app-config.module';
import { AppConfig, ConfigError, loadConfig } from './config/env.validation';

async function main(): Promise<void> {
  try {
    loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
  const level = process.env.LOG_LEVEL;
  const app = await NestFactory.create<NestExpressApplication>(AppModule, {
    logger: level === 'silent' ? false : level === 'error' ? ['error'] : ['error', 'warn', 'log'],
  });
  configureApp(app);
  const config = app.get<AppConfig>(APP_CONFIG);
  await app.listen(config.port);
  new Logger('Main').log(`Serving on ${config.publicUrl} (port ${config.port}, data in ${config.dataDir})`);
}

void main();

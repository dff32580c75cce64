import { Global, Module } from '@nestjs/common';
import { ConfigModule, registerAs } from '@nestjs/config';
import { AppConfig, loadConfig } from './env.validation';

/**
 * The validated configuration as @nestjs/config's namespace 'app': ConfigModule runs {@link loadConfig}
 * (every variable, default and message of docs/product-rules.md §1 and the README) once at start and fails the start
 * with the message naming the bad variable. No .env file is read: the environment is the only source.
 */
export const appConfig = registerAs('app', (): AppConfig => loadConfig(process.env));

/** Injection token of the typed {@link AppConfig} (`@Inject(APP_CONFIG) config: AppConfig`); also `ConfigService.get('app')`. */
export const APP_CONFIG = appConfig.KEY;

@Global()
@Module({
  imports: [ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, cache: true, load: [appConfig] })],
})
export class AppConfigModule {}

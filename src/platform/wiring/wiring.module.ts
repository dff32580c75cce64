import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { PortResolver } from './port-resolver';

/** The ports between features (ports.ts): imported once, by the application's root module. */
@Global()
@Module({ imports: [DiscoveryModule], providers: [PortResolver] })
export class WiringModule {}

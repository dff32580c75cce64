import { Injectable, OnModuleInit } from '@nestjs/common';
import { EngineState } from '../web/engine-state';
import { MetricsService } from './metrics.service';

/** `engine_up{engine}`: 1 while the engine answers, 0 during an outage, as the EngineState knows it. */
@Injectable()
export class EngineUpReader implements OnModuleInit {
  constructor(
    private readonly metrics: MetricsService,
    private readonly engines: EngineState,
  ) {}

  onModuleInit(): void {
    this.metrics.readEnginesOnScrape(() => this.engines.engines.map((engine) => [engine, this.engines.isUp(engine)]));
  }
}

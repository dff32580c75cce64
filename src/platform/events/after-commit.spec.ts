import { Injectable } from '@nestjs/common';
import { EventEmitter2, EventEmitterModule, OnEvent } from '@nestjs/event-emitter';
import { Test } from '@nestjs/testing';
import { publish } from './after-commit';
import { EventName } from './in-transaction';

interface Happened {
  label: string;
}
const HAPPENED: EventName<Happened> = 'test.happened';

const heard: string[] = [];

@Injectable()
class Listener {
  @OnEvent(HAPPENED)
  happened({ label }: Happened): void {
    heard.push(label);
  }

  @OnEvent(HAPPENED)
  async fails(): Promise<void> {
    throw new Error('a failing handler');
  }
}

describe('publish', () => {
  it('starts every @OnEvent handler before it returns, and a failing handler never reaches the writer', async () => {
    const app = await Test.createTestingModule({ imports: [EventEmitterModule.forRoot()], providers: [Listener] })
      .setLogger({ log() {}, error() {}, warn() {} })
      .compile();
    await app.init();
    publish(app.get(EventEmitter2), HAPPENED, { label: 'one' });
    expect(heard).toEqual(['one']);
    await new Promise((r) => setImmediate(r));
    await app.close();
  });
});

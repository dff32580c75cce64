import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Implements, Requires } from './ports';
import { WiringModule } from './wiring.module';

abstract class Greeting {
  abstract greet(name: string): string;
}

@Injectable()
class Greeter {
  @Requires(Greeting) readonly greeting!: Greeting;
  /** What a module's onModuleInit would see: the port is in place before any of them runs. */
  seenAtInit?: Greeting;
  onModuleInit(): void {
    this.seenAtInit = this.greeting;
  }
}

@Injectable()
@Implements(Greeting)
class English implements Greeting {
  greet(name: string): string {
    return `Hello, ${name}`;
  }
}

@Injectable()
@Implements(Greeting)
class French implements Greeting {
  greet(name: string): string {
    return `Bonjour, ${name}`;
  }
}

/** A lower module that requires the port and knows nothing of who implements it. */
@Module({ providers: [Greeter], exports: [Greeter] })
class LowerModule {}

const start = async (...implementations: Array<new () => Greeting>) => {
  @Module({ imports: [LowerModule], providers: implementations })
  class HigherModule {}
  const moduleRef = await Test.createTestingModule({ imports: [WiringModule, HigherModule] }).compile();
  await moduleRef.init();
  return moduleRef;
};

describe('ports: @Requires filled at start by the one @Implements', () => {
  it('fills the required property with the implementation, before the modules’ onModuleInit', async () => {
    const app = await start(English);
    const greeter = app.get(Greeter);
    expect(greeter.greeting).toBe(app.get(English));
    expect(greeter.seenAtInit).toBe(app.get(English));
    expect(greeter.greeting.greet('Ada')).toBe('Hello, Ada');
    await app.close();
  });

  it('fails the start when no implementation is registered', async () => {
    await expect(start()).rejects.toThrow(
      'Greeter requires an implementation of Greeting; none is registered (import the module that provides it)',
    );
  });

  it('fails the start when two are registered', async () => {
    await expect(start(English, French)).rejects.toThrow(
      'Greeter requires one implementation of Greeting; 2 are registered (English, French)',
    );
  });

  it('one provider may implement several ports', async () => {
    abstract class Farewell {
      abstract bye(): string;
    }
    @Injectable()
    class Polite {
      @Requires(Greeting) readonly greeting!: Greeting;
      @Requires(Farewell) readonly farewell!: Farewell;
    }
    @Injectable()
    @Implements(Greeting, Farewell)
    class Both implements Greeting, Farewell {
      greet(name: string): string {
        return `Hi, ${name}`;
      }
      bye(): string {
        return 'Bye';
      }
    }
    const app = await Test.createTestingModule({ imports: [WiringModule], providers: [Polite, Both] }).compile();
    await app.init();
    expect(app.get(Polite).greeting).toBe(app.get(Both));
    expect(app.get(Polite).farewell).toBe(app.get(Both));
    await app.close();
  });
});

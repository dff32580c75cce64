import { SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { RouteReflector } from './route-reflector';

class Plain {
  open(): void {}
  closed(): void {}
}
SetMetadata('public', true)(Plain.prototype, 'open', Object.getOwnPropertyDescriptor(Plain.prototype, 'open')!);

@SetMetadata('roles', ['class'])
class Decorated {
  handler(): void {}
}

describe('RouteReflector', () => {
  it("answers as Nest's Reflector does, handler before class, undefined included, for any key", () => {
    const cached = new RouteReflector();
    const nest = new Reflector();
    const Roles = Reflector.createDecorator<string[]>();
    Roles(['decorated'])(Plain.prototype, 'closed', Object.getOwnPropertyDescriptor(Plain.prototype, 'closed')!);
    const cases: Array<[unknown, [object, object]]> = [
      ['public', [Plain.prototype.open, Plain]],
      ['public', [Plain.prototype.closed, Plain]],
      ['roles', [Decorated.prototype.handler, Decorated]],
      ['roles', [Plain.prototype.open, Plain]],
      [Roles, [Plain.prototype.closed, Plain]],
    ];
    for (let round = 0; round < 2; round++)
      for (const [key, targets] of cases)
        expect(cached.getAllAndOverride(key, targets as never)).toEqual(nest.getAllAndOverride(key, targets as never));
  });

  it('reads the metadata of a route once', () => {
    const cached = new RouteReflector();
    const get = jest.spyOn(Reflector.prototype, 'get');
    for (let i = 0; i < 5; i++) cached.getAllAndOverride('public', [Plain.prototype.closed, Plain]);
    expect(get).toHaveBeenCalledTimes(2); // handler, then class, the first time only
    cached.getAllAndOverride('public', [Plain.prototype.closed]);
    expect(get).toHaveBeenCalledTimes(3); // not a route's pair: asked as usual
  });
});

import { DiscoveryService } from '@nestjs/core';

/**
 * A port: an abstract class a lower feature declares (what it needs answered, in its own words) and a higher feature
 * implements. The lower feature never imports the higher one; the framework finds the implementation at start.
 */
export type Port<T = unknown> = abstract new (...args: never[]) => T;

type Contravariant<C> = C extends Port<infer T> ? (x: T) => void : never;
/** What a class implementing all of `P` is: the intersection of their instance types. */
type InstanceOfAll<P extends Port[]> = Contravariant<P[number]> extends (x: infer I) => void ? I : never;

/** What a required port is read into: the consumer's property. */
export interface Requirement {
  property: string | symbol;
  port: Port;
}

/** The providers marked @Implements, with the ports each implements. */
export const implementsMarker = DiscoveryService.createDecorator<Port[]>();

/** The providers with a @Requires property, with the properties to fill. */
export const requiresMarker = DiscoveryService.createDecorator<Requirement[]>();

/**
 * Marks a provider as the implementation of these ports; the class must have their methods. Each port has exactly
 * one implementation in the application, or the start fails (PortResolver).
 */
export function Implements<P extends Port[]>(...ports: P) {
  return (target: abstract new (...args: never[]) => InstanceOfAll<P>): void => {
    implementsMarker(ports)(target);
  };
}

/**
 * Declares a property that holds the one implementation of `port`, set at start before any module's onModuleInit.
 * The start fails when the application registers none, or more than one.
 */
export function Requires(port: Port): PropertyDecorator {
  return (prototype, property) => {
    const owner = prototype.constructor;
    const declared = (Reflect.getOwnMetadata(requiresMarker.KEY, owner) as Requirement[] | undefined) ?? [];
    requiresMarker([...declared, { property, port }])(owner);
  };
}

import { Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { implementsMarker, Port, Requirement, requiresMarker } from './ports';

type InstanceWrapper = ReturnType<DiscoveryService['getProviders']>[number];

const nameOf = (wrapper: InstanceWrapper): string =>
  (wrapper.instance as object | undefined)?.constructor.name ?? String(wrapper.name);

/**
 * Fills every @Requires property with the one provider marked @Implements for its port. Its module is global, so
 * its onModuleInit runs before every other module's: a required port is in place before anything can use it. A
 * port with no implementation, or with two, fails the start naming the service that requires it.
 */
@Injectable()
export class PortResolver implements OnModuleInit {
  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    const implementations = new Map<Port, InstanceWrapper[]>();
    for (const wrapper of this.discovery.getProviders({ metadataKey: implementsMarker.KEY })) {
      for (const port of this.discovery.getMetadataByDecorator(implementsMarker, wrapper) ?? [])
        implementations.set(port, [...(implementations.get(port) ?? []), wrapper]);
    }
    for (const consumer of this.discovery.getProviders({ metadataKey: requiresMarker.KEY })) {
      const requirements: Requirement[] = this.discovery.getMetadataByDecorator(requiresMarker, consumer) ?? [];
      for (const { property, port } of requirements) {
        const found = implementations.get(port) ?? [];
        if (found.length === 0)
          throw new Error(
            `${nameOf(consumer)} requires an implementation of ${port.name}; none is registered (import the module that provides it)`,
          );
        if (found.length > 1)
          throw new Error(
            `${nameOf(consumer)} requires one implementation of ${port.name}; ${found.length} are registered (${found.map(nameOf).join(', ')})`,
          );
        const instance = consumer.instance as Record<string | symbol, unknown> | undefined;
        const implementation = found[0].instance as unknown;
        if (!instance || !implementation)
          throw new Error(`${nameOf(consumer)} and the implementation of ${port.name} must be singletons`);
        instance[property] = implementation;
      }
    }
  }
}

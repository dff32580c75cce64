/** What the trusted-devices feature offers the rest of the server: other features import it from here, never from its files. */
export { TrustedDevice } from './entities/trusted-device.entity';
export { TrustedDevicesModule } from './trusted-devices.module';
export { TrustedDevicesService } from './trusted-devices.service';
export type { DeviceCookie } from './trusted-devices.service';

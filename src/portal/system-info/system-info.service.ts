import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { SystemInformationEntry } from '../../shared/api-types';
import { version } from '../../platform/config/version';
import { ListSystemInformationDto, RecordSystemEventDto } from './dto/system-information.dto';
import { SystemInformation } from './entities/system-information.entity';

/** Records events of the product's systems and lists them for the About page (spec 001 §2.15, §4). */
@Injectable()
export class SystemInfoService implements OnApplicationBootstrap {
  private readonly logger = new Logger('SystemInfo');

  constructor(@InjectRepository(SystemInformation) private readonly entries: Repository<SystemInformation>) {}

  /** The application records its own deployment, with its version, each time it starts. */
  async onApplicationBootstrap(): Promise<void> {
    try {
      await this.record({
        eventType: 'application-deployment',
        status: 'completed',
        version,
        message: `Application started (version ${version}).`,
      });
    } catch (e) {
      this.logger.error(`Could not record the application deployment: ${(e as Error).message}`);
    }
  }

  /** Latest first unless asc is true; only the given event type when one is named. */
  async list(query: ListSystemInformationDto): Promise<SystemInformationEntry[]> {
    const order = query.asc === true ? 'ASC' : 'DESC';
    const rows = await this.entries.find({
      where: query.eventType ? { eventType: query.eventType } : {},
      order: { startDateTime: order, id: order },
      take: 500,
    });
    return rows.map(toEntry);
  }

  async record(dto: RecordSystemEventDto): Promise<SystemInformationEntry> {
    const saved = await this.entries.save(
      this.entries.create({
        eventType: dto.eventType,
        status: dto.status,
        version: dto.version ?? '',
        message: dto.message ?? '',
        startDateTime: dto.startDateTime ? new Date(dto.startDateTime) : new Date(),
      }),
    );
    return toEntry(saved);
  }
}

function toEntry(e: SystemInformation): SystemInformationEntry {
  return {
    id: e.id,
    eventType: e.eventType,
    status: e.status,
    version: e.version,
    message: e.message,
    startDateTime: new Date(e.startDateTime).toISOString(),
    modified: new Date(e.modified).toISOString(),
  };
}

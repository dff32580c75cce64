import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { StoredFile } from './entities/stored-file.entity';
import { FileStore, StoredFileContent } from './file-store';

/** Files as rows of `stored_files`: seen by every instance on the same database. */
@Injectable()
export class DatabaseFileStore extends FileStore {
  constructor(@InjectRepository(StoredFile) private readonly files: Repository<StoredFile>) {
    super();
  }

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    await this.files.insert({ key, data, contentType, size: data.length });
  }

  async get(key: string): Promise<StoredFileContent | null> {
    const file = await this.files.findOneBy({ key });
    return file ? { data: Buffer.from(file.data), contentType: file.contentType, size: file.size } : null;
  }

  exists(key: string): Promise<boolean> {
    return this.files.existsBy({ key });
  }

  async delete(key: string): Promise<void> {
    await this.files.delete({ key });
  }
}

import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DatabaseFileStore } from './database-file-store';
import { StoredFile } from './entities/stored-file.entity';
import { FileStore } from './file-store';

/** The file store every module uses (logos, reports): the database one unless another is configured. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([StoredFile])],
  providers: [{ provide: FileStore, useClass: DatabaseFileStore }],
  exports: [FileStore],
})
export class FilesModule {}

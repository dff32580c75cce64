/** A stored file's bytes and what they are. */
export interface StoredFileContent {
  data: Buffer;
  contentType: string;
  size: number;
}

/**
 * Where files live that every instance must serve (organisation logos, report downloads). The database
 * implementation is the default, since the files are small and the database is already shared; an object
 * store (S3 and the like) would implement the same four calls.
 */
export abstract class FileStore {
  /** Stores a new file; refuses (throws) when the key exists already. */
  abstract put(key: string, data: Buffer, contentType: string): Promise<void>;
  abstract get(key: string): Promise<StoredFileContent | null>;
  abstract exists(key: string): Promise<boolean>;
  /** Removes the file if it is there. */
  abstract delete(key: string): Promise<void>;
}

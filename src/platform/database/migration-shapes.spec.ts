import { QueryRunner } from 'typeorm';
import { foreignKey, portable } from './migration-shapes';

const on = (type: 'sqlite' | 'postgres') =>
  ({ connection: { driver: { options: { type } } } }) as unknown as QueryRunner;

describe('the shapes the migrations share', () => {
  // Released migrations build their tables from these; a change here would give a new installation a schema that no
  // upgraded one has.
  it.each([
    ['sqlite', 'datetime', "datetime('now')"],
    ['postgres', 'timestamptz', 'now()'],
  ] as const)('on %s: the moment type, its default, the key and the written-at column', (engine, date, now) => {
    expect(portable(on(engine))).toEqual({
      postgres: engine === 'postgres',
      date,
      now,
      id: { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
      createdAt: { name: 'createdAt', type: date, default: now },
    });
  });

  it('a foreign key names the row by its id and goes with it unless told to empty the column', () => {
    expect(foreignKey('userId', 'users')).toEqual({
      columnNames: ['userId'],
      referencedTableName: 'users',
      referencedColumnNames: ['id'],
      onDelete: 'CASCADE',
    });
    expect(foreignKey('createdById', 'users', 'SET NULL').onDelete).toBe('SET NULL');
  });
});

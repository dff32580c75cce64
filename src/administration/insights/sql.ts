/**
 * The statements of sign-in insights are written with `?` placeholders; the platform's raw-sql.ts meets the engines
 * (placeholders, dates, flags, an UPDATE's count).
 */
export {
  runSql as run,
  updatedCount as updated,
  storedDate as dbDate,
  storedFlag as dbFlag,
} from '../../platform/database/raw-sql';

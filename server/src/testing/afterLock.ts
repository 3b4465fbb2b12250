import { sql } from 'drizzle-orm';
import { rawRows, type Db } from '../db/client.js';

/**
 * A test oracle for "nothing is stored once a note is locked": a trigger records every live update row
 * inserted while its note, as the inserting transaction sees it, is already signed, finished or deleted
 * (or its project closed). Installed in a test's own database only.
 */
export async function installAfterLockTrigger(db: Db): Promise<void> {
  await db.execute(sql.raw('create table test_updates_after_lock (update_id bigint not null, document_name text not null)'));
  await db.execute(
    sql.raw(`create function test_record_after_lock() returns trigger language plpgsql as $$
begin
  if exists (select 1 from lab_notes n join projects p on p.project_no = n.project_no
             where new.document_name = 'labnote.' || n.note_no
               and (n.status in ('T', 'F') or n.deleted_at is not null or p.status = 'C')) then
    insert into test_updates_after_lock values (new.id, new.document_name);
  end if;
  return new;
end $$`),
  );
  await db.execute(
    sql.raw('create trigger test_after_lock after insert on document_updates for each row execute function test_record_after_lock()'),
  );
}

/** How many of the document's updates were stored after its note was locked. */
export async function storedAfterLock(db: Db, documentName: string): Promise<number> {
  return (
    await rawRows<{ update_id: string }>(db, sql`select update_id from test_updates_after_lock where document_name = ${documentName}`)
  ).length;
}

/**
 * What follows the customer writes to a database in memory, by the database's name: the
 * stored ids a fill asks (stored-ids.ts) and the listings a search shows (listing-memory.ts).
 * The writes made in this page tell them what they stored (customer-blocks.ts); a follower
 * that has stopped hears nothing more.
 */
export class DatabaseFollowers<Follower> {
  private readonly byName = new Map<string, Set<Follower>>();

  add(dbName: string, follower: Follower): void {
    let followers = this.byName.get(dbName);
    if (!followers) this.byName.set(dbName, (followers = new Set()));
    followers.add(follower);
  }

  remove(dbName: string, follower: Follower): void {
    const followers = this.byName.get(dbName);
    followers?.delete(follower);
    if (followers?.size === 0) this.byName.delete(dbName);
  }

  of(dbName: string): Iterable<Follower> {
    return this.byName.get(dbName) ?? [];
  }
}

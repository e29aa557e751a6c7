import { createHash, hash } from 'node:crypto';

/**
 * Entity tags of list pages that do not cost a serialised page each time.
 *
 * Each customer's wire form is hashed once and the digest kept until the store says that
 * customer changed (`forget`); a page's tag hashes its customers' digests in order together
 * with `last_page`. So the tag still covers exactly what the page shows (any change to a
 * listed customer or their cards, a customer added to or moved on the page, a new last page)
 * while a conditional GET of an unchanged page hashes a hundred short digests instead of
 * building, serialising and hashing a hundred customers. Digests come from content, not
 * from counters, so a restarted sandbox with the same data answers with the same tags.
 */
export class PageTags {
  private readonly digests = new Map<string, string>();

  /** Every change to what the list shows of a customer must call this. */
  forget(customerId: string): void {
    this.digests.delete(customerId);
  }

  /**
   * The tag's opaque value (base64url, no quotes) for a page of `customers`; `wireFormAt(i)`
   * is asked for only for customers whose digest is not known.
   */
  pageTag(customers: readonly { id: string }[], lastPage: number, wireFormAt: (index: number) => unknown): string {
    const page = createHash('sha1').update(`${lastPage}`);
    customers.forEach((customer, index) => {
      let digest = this.digests.get(customer.id);
      if (digest === undefined) {
        digest = hash('sha1', JSON.stringify(wireFormAt(index)), 'base64url');
        this.digests.set(customer.id, digest);
      }
      page.update(`\n${digest}`);
    });
    return page.digest('base64url');
  }
}

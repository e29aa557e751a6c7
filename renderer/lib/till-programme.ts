/**
 * Which card's points a till shows. A customer may hold cards in several programmes, and the
 * service does not say which one this till's key earns on: the till is told (Settings,
 * "This till's programme"). These rules are shared by the search results and the customer
 * screen so that both read the same card.
 */
import type { Card, Program } from '../../common/contract';

/** What these rules read of a card: its programme (a results list's card has little more). */
type ProgrammeCard = Pick<Card, 'program'>;

export interface TillCards<C extends ProgrammeCard = Card> {
  /** The customer's cards with this till's programme first (the rest keep their order). */
  ordered: C[];
  /** The cards whose points are the headline: this till's, or all of them when that is unknown. */
  headline: C[];
  /** The programme highlighted as this till's: only one that was chosen, never a guess. */
  highlightedProgramId: string | null;
  /** A programme is chosen for this till and the customer has no card in it. */
  noCardInTillProgramme: boolean;
}

export function cardsForTill<C extends ProgrammeCard>(cards: readonly C[], tillProgramId: string | null): TillCards<C> {
  if (tillProgramId !== null) {
    const mine = cards.filter((card) => card.program.id === tillProgramId);
    const others = cards.filter((card) => card.program.id !== tillProgramId);
    return {
      ordered: [...mine, ...others],
      headline: mine,
      highlightedProgramId: mine.length > 0 ? tillProgramId : null,
      noCardInTillProgramme: mine.length === 0,
    };
  }
  // Not told: cards all in one programme are that programme's points, and cards in several
  // are each shown with their programme's name. Either way none is claimed as this till's.
  return { ordered: [...cards], headline: [...cards], highlightedProgramId: null, noCardInTillProgramme: false };
}

/** Distinct programmes on the given customers' cards, by name, for the Settings choice. */
export function programmesOnCards(
  customers: Iterable<{ cards: readonly ProgrammeCard[] }>,
  also: Iterable<Program> = [],
): Program[] {
  const byId = new Map<string, Program>();
  for (const programme of also) byId.set(programme.id, programme);
  for (const customer of customers) {
    for (const card of customer.cards) if (!byId.has(card.program.id)) byId.set(card.program.id, card.program);
  }
  return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

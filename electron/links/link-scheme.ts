/**
 * The URL scheme of the links a POS opens: `loyalty-till://…`. Its own module, free of
 * dependencies, because the installer configuration (build/) reads it too.
 */
export const LINK_SCHEME = 'loyalty-till';

/** The command line's ask for the till's health (health-check.ts), in both shells. */
export const HEALTH_FLAG = '--health';

/** The console's last environment (an id, not a credential), read by the layout on the next visit. */
export const ENVIRONMENT_COOKIE = "herald_console_environment";

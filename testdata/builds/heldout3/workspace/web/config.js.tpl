window.BERTH_CONFIG = {
  version: "{VERSION}",
  apiBase: "{API_BASE}",
  sentryDsn: "{SENTRY_DSN}",
};

#include <libintl.h>
#define _(s) gettext(s)
const char *greeting(void) { return _("Hello"); }

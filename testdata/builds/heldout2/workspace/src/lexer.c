#include "src/lexer.h"

#include <string.h>

#include "src/keywords.h"
#include "src/opcodes.h"

int drift_keyword(const char *word) {
    for (int i = 0; i < DRIFT_NKEYWORDS; i++)
        if (strcmp(drift_keywords[i].word, word) == 0)
            return drift_keywords[i].token;
    return TOK_IDENT;
}

int drift_opgroup_count(void) { return DRIFT_GROUP_CONTROL + DRIFT_GROUP_OUTPUT + 1; }

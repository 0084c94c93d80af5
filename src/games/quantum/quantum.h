/* quantum.h: the Quantum rules module (rules in docs/rules/quantum.md).
 * The engine registers qt_rules; everything else of the module is
 * internal (qt.h). */
#ifndef QT_QUANTUM_H
#define QT_QUANTUM_H

#include "../../engine/engine.h"

extern const struct rules qt_rules;

#endif

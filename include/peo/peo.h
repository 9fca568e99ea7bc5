/*
 * peo/peo.h - all of libpeo's public API.
 */
#ifndef PEO_PEO_H
#define PEO_PEO_H

#include "abi.h"
#include "common.h"
#include "sys.h"
#include "event.h"
#include "counter.h"
#include "ring.h"
#include "record.h"
#include "perfdata.h"
#include "symbols.h"
#include "profile.h"
#include "sampler.h"

#endif /* PEO_PEO_H */

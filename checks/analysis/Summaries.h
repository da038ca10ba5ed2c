// The whole-project summaries: their data (ProjectSummaries.h), its JSON form
// (SummaryJson.cpp) and the collector that builds a file's summary from its
// model analysis (SummaryCollector.h).
#pragma once

#include "ProjectSummaries.h"
#include "SummaryCollector.h"

// The guest test binary's main (doctest). The rig's /init runs it inside the arm64 guest.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

// os/os.hpp: the one place that picks the OS back end.
#pragma once

#if defined(__linux__)
#define GLINT_OS_LINUX 1
#else
#define GLINT_OS_OTHER 1
#endif

/*
 * shim.h: the AT-SPI client library (Debian libatspi2.0-dev), through which
 * the desktop popover reads the focused application's selection and
 * replaces it (DesktopPopover/Accessibility). Its bus is at-spi2-core's.
 */
#ifndef TRANSLATION_HOST_CATSPI_SHIM_H
#define TRANSLATION_HOST_CATSPI_SHIM_H

#include <atspi/atspi.h>

#endif

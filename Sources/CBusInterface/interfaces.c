#include "interfaces.h"

#include "bus_interface.h"

GDBusInterfaceInfo *cbus_translation1_interface(void) {
  return (GDBusInterfaceInfo *)&org_translationhost_translation1_interface;
}

GDBusInterfaceInfo *cbus_request_interface(void) {
  return (GDBusInterfaceInfo *)&org_freedesktop_portal_request_interface;
}

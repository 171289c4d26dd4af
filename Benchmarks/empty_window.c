/*
 * empty_window: the floor for a GTK 4 popover's first frame: initialise
 * GTK, map an empty undecorated window, and keep it until SIGTERM.
 */
#include <gtk/gtk.h>

int main(void) {
  if (!gtk_init_check()) return 1;
  GtkWidget *window = gtk_window_new();
  gtk_window_set_decorated(GTK_WINDOW(window), FALSE);
  gtk_window_set_default_size(GTK_WINDOW(window), 240, 100);
  gtk_window_present(GTK_WINDOW(window));
  for (;;) g_main_context_iteration(NULL, TRUE);
}

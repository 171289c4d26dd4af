# translation-host: the two set-up commands are `make run` and `make test`.
# Both install what is missing (Debian packages, as root or through sudo) and build first.
# `make check` is the fast lane: the unit tests alone, in seconds.

SWIFT       ?= swift
CC          ?= cc
CONFIG      ?= release
BUILD       := build
PROVIDERS   := $(BUILD)/lib/translation-host/providers
LIBEXEC     := $(BUILD)/libexec/translation-host
ABI_INCLUDE := Sources/CTranslationProvider/include

# `make install` lays the build out under $(DESTDIR)$(PREFIX), as `make build` does under build/.
PREFIX      ?= /usr/local
DESTDIR     ?=
UNITS       := translation-host.socket translation-host.service
# The D-Bus interface (Documentation/DBus.md): its activation file and introspection data.
DBUS_NAME   := org.translationhost.Translation1
# The resident desktop agent (translation-host agent): its activation file.
AGENT_NAME  := org.translationhost.Desktop
DBUS_SERVICES   := $(PREFIX)/share/dbus-1/services
DBUS_INTERFACES := $(PREFIX)/share/dbus-1/interfaces
# The menu entry (and a shortcut target): translate the selection in any application.
DESKTOP_ENTRY := org.translationhost.TranslateSelection.desktop

# Debian packages the build and the tests need; `make deps` installs the missing ones.
DEBIAN_PACKAGES := gcc g++ libc6-dev binutils libseccomp-dev libcld2-dev libncurses-dev libgtk-4-dev libxtst-dev \
                   pkg-config libglib2.0-dev libglib2.0-bin libglib2.0-dev-bin libicu-dev libmimalloc2.0 dbus-daemon systemd python3-dbus \
                   apertium apertium-eng-spa apertium-apy tmux python3-gi \
                   xvfb xauth xdotool xclip gnome-text-editor gnome-settings-daemon-common dbus-bin imagemagick \
                   libxres-dev libxext-dev libatspi2.0-dev at-spi2-core xfwm4 mousepad featherpad xterm \
                   x11-utils gir1.2-atspi-2.0 gir1.2-gtk-4.0 sway grim wtype wl-clipboard passt minisign \
                   libsecret-1-0 libsecret-tools gnome-keyring libfuse3-dev \
                   libwayland-dev libwayland-bin wayland-protocols libxkbcommon-dev weston phoc \
                   xdg-desktop-portal

# Providers in Plugins/: Swift ones are SwiftPM dynamic-library products, C ones are built with $(CC).
SWIFT_PROVIDERS := Reverse Apertium ApertiumAPY
C_PROVIDERS     := Rot13
# The Apertium provider loads it into Apertium's stages (Sources/ApertiumIntegerScan): built with
# $(CC), as a SwiftPM library would bring the Swift runtime into every stage.
APERTIUM_STAGE_LIBRARY := libApertiumIntegerScan.so
# And this one (Sources/ApertiumTaggerOpenClass, C++ as the tagger's own
# symbol is): each text of a batch tagged as if alone.
APERTIUM_TAGGER_LIBRARY := libApertiumTaggerOpenClass.so
# And this one (Sources/ApertiumMatchCache, C++ too): the transfer stages'
# attribute matches remembered instead of an ICU matcher built for each.
APERTIUM_MATCH_LIBRARY := libApertiumMatchCache.so
CXX         ?= g++
# Example providers in Examples/: built and laid out in $(BUILD)/examples, outside the search path.
EXAMPLE_PROVIDERS := Glossary WebGlossary

# The test targets of `make check`: unit tests, which start no CLI, runner or
# service. Suites tagged `.endToEnd` in them are left out (scripts/run-tests).
CHECK_TARGETS := SystemTests RunnerProtocolTests ProviderLoadingTests CoreTests ServiceTests TranslationViewTreeTests \
                 TranslationUIProviderTests TerminalPopoverTests DesktopPopoverTests HostCommandLineTests PresentationTests \
                 ResidentServiceTests

# What `make format-check` lints and `make format` rewrites (.swift-format): every
# Swift file but Apple's sample in Plugins/Reverse, kept as Apple wrote it.
FORMAT_PATHS := Sources Tests Benchmarks Examples $(filter-out Plugins/Reverse,$(wildcard Plugins/*))

# SwiftPM and swift-driver leave lock files and a TemporaryDirectory.* folder per
# job in TMPDIR, and never remove them: swift gets a TMPDIR of its own, in .build.
TOOL_TMPDIR := $(CURDIR)/.build/tmp
SWIFTPM      = TMPDIR=$(TOOL_TMPDIR) $(SWIFT)

# Where `make bench`'s benchmarks record the rows of its one-screen summary (Benchmarks/summary.py).
BENCH_SUMMARY := $(CURDIR)/$(BUILD)/bench-summary.jsonl

.PHONY: all build deps run test check format-check format bench fuzz soak clean install uninstall toolchain-tmp dbus-interface wayland-protocols

all: build

deps:
	@scripts/install-debian-packages $(DEBIAN_PACKAGES)

# The D-Bus interfaces, generated from their XML (Sources/CBusInterface): the
# introspection data and the skeletons (CBusTranslation1, CBusPortalRequest)
# whose handle-* signals the service connects. DBusTests runs the same command.
DBUS_XML := Packaging/dbus/$(DBUS_NAME).xml
DBUS_CODEGEN := --c-namespace CBus --interface-prefix org.translationhost. --c-generate-autocleanup none
dbus-interface: deps
	cd Sources/CBusInterface && \
	gdbus-codegen $(DBUS_CODEGEN) --header --output include/bus_interface.h ../../$(DBUS_XML) && \
	gdbus-codegen $(DBUS_CODEGEN) --body --output bus_interface.c ../../$(DBUS_XML)

# The Wayland protocols Debian does not ship, as wayland-scanner makes them; the
# XML is ours, written from the specifications. The layer shell's client code
# (Sources/CWaylandLayerShell) also needs Debian's xdg-shell, which get_popup
# names; the virtual keyboard's is Sources/CVirtualKeyboard.
# WaylandProtocolTests runs the same commands.
LAYER_SHELL := Sources/CWaylandLayerShell
XDG_SHELL_XML := /usr/share/wayland-protocols/stable/xdg-shell/xdg-shell.xml
VIRTUAL_KEYBOARD_XML := Packaging/wayland/virtual-keyboard-unstable-v1.xml
wayland-protocols: deps
	wayland-scanner client-header $(LAYER_SHELL)/wlr-layer-shell-unstable-v1.xml $(LAYER_SHELL)/include/layer_shell_client.h
	wayland-scanner private-code $(LAYER_SHELL)/wlr-layer-shell-unstable-v1.xml $(LAYER_SHELL)/layer_shell_protocol.c
	wayland-scanner private-code $(XDG_SHELL_XML) $(LAYER_SHELL)/xdg_shell_protocol.c
	wayland-scanner client-header $(VIRTUAL_KEYBOARD_XML) Sources/CVirtualKeyboard/virtual_keyboard_protocol.h
	wayland-scanner private-code $(VIRTUAL_KEYBOARD_XML) Sources/CVirtualKeyboard/virtual_keyboard_protocol.c

# Made if missing; what is older than a day is no job's any more.
toolchain-tmp:
	@mkdir -p $(TOOL_TMPDIR) && find $(TOOL_TMPDIR) -mindepth 1 -maxdepth 1 -mmin +1440 -exec rm -rf {} +

# Folders are made with mode 0755 whatever the umask: the host refuses a
# provider folder that others may write. SWIFT_BUILD_FLAGS: more for swift build.
SWIFT_BUILD_FLAGS ?=
build: deps toolchain-tmp
	$(SWIFTPM) build -c $(CONFIG) $(SWIFT_BUILD_FLAGS)
	@install -d -m 0755 $(BUILD) $(BUILD)/bin $(BUILD)/libexec $(LIBEXEC) $(BUILD)/lib $(BUILD)/lib/translation-host $(PROVIDERS)
	@out=$$($(SWIFTPM) build -c $(CONFIG) --show-bin-path) && \
	install -m 0755 "$$out/translation-host" $(BUILD)/bin/translation-host && \
	install -m 0755 "$$out/translation-host-desktop" $(LIBEXEC)/translation-host-desktop && \
	install -m 0755 "$$out/translation-provider-runner" $(LIBEXEC)/translation-provider-runner && \
	for name in $(SWIFT_PROVIDERS); do \
	  scripts/assemble-bundle Plugins/$$name "$$out/lib$$name.so" $(PROVIDERS) || exit 1; \
	done && \
	install -d -m 0755 $(BUILD)/examples && \
	for name in $(EXAMPLE_PROVIDERS); do \
	  scripts/assemble-bundle Examples/$$name "$$out/lib$$name.so" $(BUILD)/examples || exit 1; \
	done
	@$(CC) -std=c11 -Wall -Wextra -Werror -O2 -shared -fPIC -ISources/ApertiumIntegerScan/include \
	  Sources/ApertiumIntegerScan/integer_scan.c -o $(PROVIDERS)/Apertium.translationprovider/$(APERTIUM_STAGE_LIBRARY)
	@chmod 0755 $(PROVIDERS)/Apertium.translationprovider/$(APERTIUM_STAGE_LIBRARY)
	@$(CXX) -std=c++17 -Wall -Wextra -Werror -O2 -shared -fPIC -fvisibility=hidden \
	  Sources/ApertiumTaggerOpenClass/tagger_open_class.cc -o $(PROVIDERS)/Apertium.translationprovider/$(APERTIUM_TAGGER_LIBRARY)
	@chmod 0755 $(PROVIDERS)/Apertium.translationprovider/$(APERTIUM_TAGGER_LIBRARY)
	@$(CXX) -std=c++17 -Wall -Wextra -Werror -O2 -shared -fPIC -fvisibility=hidden \
	  Sources/ApertiumMatchCache/match_cache.cc -ldl -o $(PROVIDERS)/Apertium.translationprovider/$(APERTIUM_MATCH_LIBRARY)
	@chmod 0755 $(PROVIDERS)/Apertium.translationprovider/$(APERTIUM_MATCH_LIBRARY)
	@for name in $(C_PROVIDERS); do \
	  $(CC) -std=c11 -Wall -Wextra -Werror -O2 -shared -fPIC -fvisibility=hidden -I$(ABI_INCLUDE) \
	    Plugins/$$name/*.c -o $(BUILD)/lib$$name.so || exit 1; \
	  scripts/assemble-bundle Plugins/$$name $(BUILD)/lib$$name.so $(PROVIDERS) || exit 1; \
	done

run: build
	@echo '$$ translation-host translate --from en --to es "The cat is on the table. Machine translation works offline."'
	@$(BUILD)/bin/translation-host translate --from en --to es "The cat is on the table. Machine translation works offline."
	@echo '$$ echo "Hallo, Welt!" | translation-host run --provider Reverse --replace --press Translate --press "Replace With Translation"'
	@echo "Hallo, Welt!" | $(BUILD)/bin/translation-host run --provider Reverse --replace --press Translate --press "Replace With Translation"
	@echo '$$ translation-host translate --provider org.translationhost.rot13 --from en --to en-x-rot13 "Hello, world!"'
	@$(BUILD)/bin/translation-host translate --provider org.translationhost.rot13 --from en --to en-x-rot13 "Hello, world!"

# The whole suite, against the build in $(BUILD). scripts/run-tests gives it a home
# of its own and runs its suites in parallel lanes (TEST_JOBS at a time; default:
# two per core). The tests are a debug build: one release build with the tests
# (SWIFT_BUILD_FLAGS="--build-tests -Xswiftc -enable-testing", TEST_CONFIG=release)
# works too, but its optimised test modules took about as long as the debug build it saves.
test: build
	$(SWIFTPM) build --build-tests
	TRANSLATION_HOST_BUILD=$(CURDIR)/$(BUILD) SWIFT=$(SWIFT) TOOL_TMPDIR=$(TOOL_TMPDIR) scripts/run-tests

# The unit tests of $(CHECK_TARGETS): a debug build of the tests is all they need
# (no release build, no bundles). Package.swift's dependencies are checked
# against the imports first (scripts/check-package-imports).
# The soak tests: minutes of rounds each, too long for `make test` (now: the
# 100 rounds of Replace by paste and an xclip copy, issue 27; the Apertium
# identity tests' warm reference against a cold `apertium` run per text).
soak: build
	$(SWIFTPM) build --build-tests
	TRANSLATION_HOST_SOAK=1 TRANSLATION_HOST_BUILD=$(CURDIR)/$(BUILD) SWIFT=$(SWIFT) TOOL_TMPDIR=$(TOOL_TMPDIR) \
	  scripts/run-tests --filter 'ReplaceAndCopyRounds|theReferenceIsApertiumTextByText'

check: deps toolchain-tmp
	$(SWIFTPM) build --build-tests
	TMPDIR=$(TOOL_TMPDIR) SWIFT=$(SWIFT) scripts/check-package-imports
	SWIFT=$(SWIFT) TOOL_TMPDIR=$(TOOL_TMPDIR) scripts/run-tests --unit $(CHECK_TARGETS)

format-check:
	$(SWIFT) format lint --strict --recursive --parallel $(FORMAT_PATHS)

format:
	$(SWIFT) format format --in-place --recursive --parallel $(FORMAT_PATHS)

bench: build
	@scripts/install-debian-packages time linux-perf
	@rm -f $(BENCH_SUMMARY)
	$(SWIFTPM) build -c $(CONFIG) --product host-benchmark
	BENCH_SUMMARY=$(BENCH_SUMMARY) "$$($(SWIFTPM) build -c $(CONFIG) --show-bin-path)/host-benchmark" $(BUILD)
	BENCH_SUMMARY=$(BENCH_SUMMARY) "$$($(SWIFTPM) build -c $(CONFIG) --show-bin-path)/host-benchmark" $(BUILD) dbus
	BENCH_SUMMARY=$(BENCH_SUMMARY) python3 Benchmarks/feeding.py
	BENCH_SUMMARY=$(BENCH_SUMMARY) python3 Benchmarks/startup.py
	BENCH_SUMMARY=$(BENCH_SUMMARY) python3 Benchmarks/registry.py
	BENCH_SUMMARY=$(BENCH_SUMMARY) python3 Benchmarks/translate.py
	BENCH_SUMMARY=$(BENCH_SUMMARY) python3 Benchmarks/popover.py
	BENCH_SUMMARY=$(BENCH_SUMMARY) python3 Benchmarks/desktop_popover.py
	BENCH_SUMMARY=$(BENCH_SUMMARY) python3 Benchmarks/desktop_popover.py --sway
	@python3 Benchmarks/summary.py $(BENCH_SUMMARY)

# The manifest reader's fuzzer (Benchmarks/PlistFuzz): FUZZ_ARGS="--seed 7 --cases 1000000" to vary it.
FUZZ_ARGS ?=
fuzz: toolchain-tmp
	$(SWIFTPM) build -c $(CONFIG) --product plist-fuzz
	"$$($(SWIFTPM) build -c $(CONFIG) --show-bin-path)/plist-fuzz" $(FUZZ_ARGS)

# Installs what `make build` made (building first only if nothing was built),
# the systemd user units with ExecStart pointing into $(PREFIX), and, for C
# provider authors, the ABI header with its pkg-config file.
install: | $(BUILD)/bin/translation-host $(LIBEXEC)/translation-host-desktop
	install -d -m 0755 $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/libexec/translation-host \
	  $(DESTDIR)$(PREFIX)/lib/translation-host/providers $(DESTDIR)$(PREFIX)/lib/systemd/user \
	  $(DESTDIR)$(PREFIX)/share/applications $(DESTDIR)$(DBUS_SERVICES) $(DESTDIR)$(DBUS_INTERFACES) \
	  $(DESTDIR)$(PREFIX)/include/translation-host $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 0644 $(ABI_INCLUDE)/translation_provider.h $(DESTDIR)$(PREFIX)/include/translation-host/translation_provider.h
	install -m 0644 $(ABI_INCLUDE)/translation_provider_v1.h $(DESTDIR)$(PREFIX)/include/translation-host/translation_provider_v1.h
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e "s|@VERSION@|$$(sed -n 's/^#define TP_ABI_VERSION_MAJOR \([0-9]*\)$$/\1/p' $(ABI_INCLUDE)/translation_provider.h).$$(sed -n 's/^#define TP_ABI_VERSION_MINOR \([0-9]*\)$$/\1/p' $(ABI_INCLUDE)/translation_provider.h)|g" \
	  Packaging/pkgconfig/translation-provider.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/translation-provider.pc
	chmod 0644 $(DESTDIR)$(PREFIX)/lib/pkgconfig/translation-provider.pc
	install -m 0755 $(BUILD)/bin/translation-host $(DESTDIR)$(PREFIX)/bin/translation-host
	install -m 0755 $(LIBEXEC)/translation-host-desktop $(DESTDIR)$(PREFIX)/libexec/translation-host/translation-host-desktop
	install -m 0755 $(LIBEXEC)/translation-provider-runner $(DESTDIR)$(PREFIX)/libexec/translation-host/translation-provider-runner
	@for bundle in $(PROVIDERS)/*.translationprovider; do \
	  target=$(DESTDIR)$(PREFIX)/lib/translation-host/providers/$$(basename $$bundle); \
	  install -d -m 0755 $$target || exit 1; \
	  for file in $$bundle/*; do \
	    case $$file in *.so) mode=0755;; *) mode=0644;; esac; \
	    if [ -d $$file ]; then \
	      install -d -m 0755 $$target/$$(basename $$file) && install -m 0644 $$file/* $$target/$$(basename $$file)/ || exit 1; \
	    else install -m $$mode $$file $$target/ || exit 1; fi; \
	  done; \
	done
	@for unit in $(UNITS); do \
	  sed 's|@PREFIX@|$(PREFIX)|g' Packaging/systemd/$$unit > $(DESTDIR)$(PREFIX)/lib/systemd/user/$$unit.tmp && \
	  chmod 0644 $(DESTDIR)$(PREFIX)/lib/systemd/user/$$unit.tmp && \
	  mv $(DESTDIR)$(PREFIX)/lib/systemd/user/$$unit.tmp $(DESTDIR)$(PREFIX)/lib/systemd/user/$$unit || exit 1; \
	done
	sed 's|@PREFIX@|$(PREFIX)|g' Packaging/desktop/$(DESKTOP_ENTRY) > $(DESTDIR)$(PREFIX)/share/applications/$(DESKTOP_ENTRY)
	chmod 0644 $(DESTDIR)$(PREFIX)/share/applications/$(DESKTOP_ENTRY)
	sed 's|@PREFIX@|$(PREFIX)|g' Packaging/dbus/$(DBUS_NAME).service > $(DESTDIR)$(DBUS_SERVICES)/$(DBUS_NAME).service.tmp
	chmod 0644 $(DESTDIR)$(DBUS_SERVICES)/$(DBUS_NAME).service.tmp
	mv $(DESTDIR)$(DBUS_SERVICES)/$(DBUS_NAME).service.tmp $(DESTDIR)$(DBUS_SERVICES)/$(DBUS_NAME).service
	install -m 0644 Packaging/dbus/$(DBUS_NAME).xml $(DESTDIR)$(DBUS_INTERFACES)/$(DBUS_NAME).xml
	sed 's|@PREFIX@|$(PREFIX)|g' Packaging/dbus/$(AGENT_NAME).service > $(DESTDIR)$(DBUS_SERVICES)/$(AGENT_NAME).service.tmp
	chmod 0644 $(DESTDIR)$(DBUS_SERVICES)/$(AGENT_NAME).service.tmp
	mv $(DESTDIR)$(DBUS_SERVICES)/$(AGENT_NAME).service.tmp $(DESTDIR)$(DBUS_SERVICES)/$(AGENT_NAME).service

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/translation-host
	rm -f $(DESTDIR)$(PREFIX)/include/translation-host/translation_provider.h $(DESTDIR)$(PREFIX)/include/translation-host/translation_provider_v1.h \
	  $(DESTDIR)$(PREFIX)/lib/pkgconfig/translation-provider.pc
	-rmdir $(DESTDIR)$(PREFIX)/include/translation-host 2>/dev/null
	rm -rf $(DESTDIR)$(PREFIX)/libexec/translation-host
	@for bundle in $(PROVIDERS)/*.translationprovider Plugins/*; do \
	  name=$$(basename $$bundle .translationprovider); \
	  rm -rf $(DESTDIR)$(PREFIX)/lib/translation-host/providers/$$name.translationprovider; \
	done
	-rmdir $(DESTDIR)$(PREFIX)/lib/translation-host/providers $(DESTDIR)$(PREFIX)/lib/translation-host 2>/dev/null
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/lib/systemd/user/,$(UNITS))
	rm -f $(DESTDIR)$(PREFIX)/share/applications/$(DESKTOP_ENTRY)
	rm -f $(DESTDIR)$(DBUS_SERVICES)/$(DBUS_NAME).service $(DESTDIR)$(DBUS_INTERFACES)/$(DBUS_NAME).xml
	rm -f $(DESTDIR)$(DBUS_SERVICES)/$(AGENT_NAME).service

$(BUILD)/bin/translation-host $(LIBEXEC)/translation-host-desktop &:
	$(MAKE) build

clean:
	rm -rf $(BUILD) .build

# translation-host: the two set-up commands are `make run` and `make test`.
# Both install what is missing (Debian packages, as root or through sudo) and build first.

SWIFT       ?= swift
CC          ?= cc
CONFIG      ?= release
BUILD       := build
PROVIDERS   := $(BUILD)/lib/translation-host/providers
LIBEXEC     := $(BUILD)/libexec/translation-host
ABI_INCLUDE := Sources/CTranslationProvider/include

# Debian packages the build and the tests need; `make deps` installs the missing ones.
DEBIAN_PACKAGES := gcc g++ libc6-dev libseccomp-dev libcld2-dev libncurses-dev apertium apertium-eng-spa apertium-apy tmux

# Providers in Plugins/: Swift ones are SwiftPM dynamic-library products, C ones are built with $(CC).
SWIFT_PROVIDERS := Reverse Apertium ApertiumAPY
C_PROVIDERS     := Rot13

.PHONY: all build deps run test bench clean

all: build

deps:
	@scripts/install-debian-packages $(DEBIAN_PACKAGES)

# Folders are made with mode 0755 whatever the umask: the host refuses a
# provider folder that others may write.
build: deps
	$(SWIFT) build -c $(CONFIG)
	@install -d -m 0755 $(BUILD) $(BUILD)/bin $(BUILD)/libexec $(LIBEXEC) $(BUILD)/lib $(BUILD)/lib/translation-host $(PROVIDERS)
	@out=$$($(SWIFT) build -c $(CONFIG) --show-bin-path) && \
	install -m 0755 "$$out/translation-host" $(BUILD)/bin/translation-host && \
	install -m 0755 "$$out/translation-provider-runner" $(LIBEXEC)/translation-provider-runner && \
	for name in $(SWIFT_PROVIDERS); do \
	  scripts/assemble-bundle Plugins/$$name "$$out/lib$$name.so" $(PROVIDERS) || exit 1; \
	done
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

test: build
	TRANSLATION_HOST_BUILD=$(CURDIR)/$(BUILD) $(SWIFT) test

bench: build
	@scripts/install-debian-packages time
	$(SWIFT) build -c $(CONFIG) --product host-benchmark
	"$$($(SWIFT) build -c $(CONFIG) --show-bin-path)/host-benchmark" $(BUILD)
	python3 Benchmarks/registry.py
	python3 Benchmarks/translate.py

clean:
	rm -rf $(BUILD) .build

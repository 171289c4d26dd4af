# translation-host: the two set-up commands are `make run` and `make test`.
# Both install what is missing (Debian packages, as root or through sudo) and build first.

SWIFT       ?= swift
CC          ?= cc
CONFIG      ?= release
BUILD       := build
PROVIDERS   := $(BUILD)/lib/translation-host/providers
LIBEXEC     := $(BUILD)/libexec/translation-host
ABI_INCLUDE := Sources/CTranslationProvider/include
SWIFT_OUT    = $(shell $(SWIFT) build -c $(CONFIG) --show-bin-path)

# Debian packages the build and the tests need; `make deps` installs the missing ones.
DEBIAN_PACKAGES := gcc libc6-dev libseccomp-dev

# Providers in Plugins/: Swift ones are SwiftPM dynamic-library products, C ones are built with $(CC).
SWIFT_PROVIDERS := Reverse
C_PROVIDERS     := Rot13

.PHONY: all build deps run test bench clean

all: build

deps:
	@scripts/install-debian-packages $(DEBIAN_PACKAGES)

build: deps
	$(SWIFT) build -c $(CONFIG)
	@mkdir -p $(BUILD)/bin $(LIBEXEC) $(PROVIDERS)
	install -m 0755 "$(SWIFT_OUT)/translation-host" $(BUILD)/bin/translation-host
	install -m 0755 "$(SWIFT_OUT)/translation-provider-runner" $(LIBEXEC)/translation-provider-runner
	@for name in $(SWIFT_PROVIDERS); do \
	  scripts/assemble-bundle Plugins/$$name "$(SWIFT_OUT)/lib$$name.so" $(PROVIDERS) || exit 1; \
	done
	@for name in $(C_PROVIDERS); do \
	  $(CC) -std=c11 -Wall -Wextra -Werror -O2 -shared -fPIC -fvisibility=hidden -I$(ABI_INCLUDE) \
	    Plugins/$$name/*.c -o $(BUILD)/lib$$name.so || exit 1; \
	  scripts/assemble-bundle Plugins/$$name $(BUILD)/lib$$name.so $(PROVIDERS) || exit 1; \
	done

run: build
	@echo '$$ echo "Hallo, Welt!" | translation-host run --replace --press Translate --press "Replace With Translation"'
	@echo "Hallo, Welt!" | $(BUILD)/bin/translation-host run --replace --press Translate --press "Replace With Translation"
	@echo '$$ translation-host translate --provider org.translationhost.rot13 --from en --to en-x-rot13 "Hello, world!"'
	@$(BUILD)/bin/translation-host translate --provider org.translationhost.rot13 --from en --to en-x-rot13 "Hello, world!"

test: build
	TRANSLATION_HOST_BUILD=$(CURDIR)/$(BUILD) $(SWIFT) test

bench: build
	$(SWIFT) build -c $(CONFIG) --product runner-benchmark
	"$(SWIFT_OUT)/runner-benchmark" $(BUILD)
	python3 Benchmarks/registry.py

clean:
	rm -rf $(BUILD) .build

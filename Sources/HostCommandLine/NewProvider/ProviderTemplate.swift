import System

/// The files of a new provider package, as `translation-host new-provider`
/// writes them: a working provider (it upper-cases text, to be replaced by
/// the author's translation), its Info.plist and entitlements, and a
/// Makefile whose `bundle` target lays out `build/<Name>.translationprovider`
/// and whose `install` target installs it with `translation-host install`.
package struct ProviderTemplate: Sendable {
  /// The language the provider is written in.
  package enum Language: String, Sendable {
    case swift, c
  }

  /// One file: its path inside the package and its text.
  package struct File: Equatable, Sendable {
    package var path: String
    package var contents: String
  }

  package var name: String
  package var language: Language
  /// Where the Swift SDK comes from: a path to a translation-host checkout or its Git URL.
  package var sdkLocation: String
  /// The `translation-host` the Makefile's `install` runs when none is on
  /// PATH: the one that wrote the package.
  package var hostExecutable = Syscalls.executablePath() ?? "translation-host"

  /// `name` must be a Swift type name (letters and digits, a letter first):
  /// it names the library, the bundle and, for Swift, the types.
  package init(name: String, language: Language, sdkLocation: String) throws(TemplateError) {
    guard let first = name.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII,
      name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) })
    else { throw .invalidName(name) }
    self.name = name
    self.language = language
    self.sdkLocation = sdkLocation
  }

  /// The bundle identifier the template declares; the author should change it.
  package var identifier: String { "com.example.\(name.lowercased())" }

  package var files: [File] {
    var files = [
      File(path: "Info.plist", contents: infoPlist),
      File(path: "\(name).entitlements", contents: Self.entitlements),
    ]
    switch language {
    case .swift:
      files += [
        File(path: "Package.swift", contents: swiftManifest),
        File(path: "Sources/\(name)/\(name).swift", contents: swiftSource),
        File(path: "Makefile", contents: swiftMakefile),
      ]
    case .c:
      files += [
        File(path: "\(name.lowercased()).c", contents: cSource),
        File(path: "Makefile", contents: cMakefile),
      ]
    }
    return files
  }

  // MARK: Bundle

  var infoPlist: String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \t<!-- Identity: reverse-DNS, yours. Two bundles with one id: the first found wins. -->
    \t<key>CFBundleIdentifier</key>
    \t<string>\(identifier)</string>
    \t<key>CFBundleName</key>
    \t<string>\(name)</string>
    \t<key>CFBundleDisplayName</key>
    \t<string>\(name)</string>
    \t<key>CFBundleShortVersionString</key>
    \t<string>1.0</string>
    \t<key>CFBundleVersion</key>
    \t<string>1</string>
    \t<!-- The shared object inside the bundle, a file name without a path. -->
    \t<key>CFBundleExecutable</key>
    \t<string>lib\(name).so</string>
    \t<key>EXAppExtensionAttributes</key>
    \t<dict>
    \t\t<key>EXExtensionPointIdentifier</key>
    \t\t<string>com.apple.public.translation-ui-provider</string>
    \t</dict>
    \t<!-- To reach the network, add (a Boolean; anything else keeps the network off):
    \t<key>com.apple.developer.translation-ui-provider.network-access</key>
    \t<true/>
    \t-->
    </dict>
    </plist>

    """
  }

  static let entitlements = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \t<!-- Makes the bundle a translation app: without it, it is listed and refused. -->
    \t<key>com.apple.developer.translation-app</key>
    \t<true/>
    </dict>
    </plist>

    """

  // MARK: Swift

  var swiftManifest: String {
    """
    // swift-tools-version: 6.1
    import PackageDescription

    // Where translation-host (its SDK, TranslationUIProvider) comes from: the
    // path of a checkout, or its Git URL. SwiftPM names a dependency after the
    // last component of that path or URL, whatever the package calls itself,
    // so the product is looked up under that name.
    let translationHost = "\(sdkLocation)"
    let translationHostPackage: String = {
      let last = String(translationHost.split(separator: "/").last ?? "")
      return last.hasSuffix(".git") ? String(last.dropLast(4)) : last
    }()
    let isPath = translationHost.hasPrefix("/") || translationHost.hasPrefix(".")

    let package = Package(
      name: "\(name)",
      products: [
        // A provider is a dynamic library: the host loads lib\(name).so.
        .library(name: "\(name)", type: .dynamic, targets: ["\(name)"])
      ],
      dependencies: [
        isPath ? .package(path: translationHost) : .package(url: translationHost, branch: "main")
      ],
      targets: [
        .target(
          name: "\(name)",
          dependencies: [.product(name: "TranslationUIProvider", package: translationHostPackage)],
          // Lets the SDK create the @main entry point through its init() in a release build.
          plugins: [.plugin(name: "TranslationProviderEntryPoint", package: translationHostPackage)])
      ]
    )

    """
  }

  var swiftSource: String {
    """
    import TranslationUIProvider

    /// \(name): upper-cases the selected text. Put your translation in
    /// `translate(_:from:to:)` and `\(name)View`.
    @main
    class \(name)Extension: TranslationUIProviderExtension, TranslationProviding {
      var body: some TranslationUIProviderExtensionScene {
        TranslationUIProviderSelectedTextScene { context in
          \(name)View(context: context)
        }
      }

      /// Headless translation (`translation-host translate`, apps).
      func translate(_ texts: [String], from source: String, to target: String) throws -> [String] {
        guard source == "en", target == "en-x-upper" else {
          throw TranslationProviderError.unsupportedLanguagePairing(source: source, target: target)
        }
        return texts.map { $0.uppercased() }
      }

      var languagePairs: [LanguagePair] { [LanguagePair(source: "en", target: "en-x-upper")] }
    }

    /// The scene: the text, its translation once ready, and "Replace with
    /// Translation" when the caller allows replacement.
    struct \(name)View: View {
      let context: TranslationUIProviderContext
      @State private var translation: String?

      var body: some View {
        VStack(alignment: .leading, spacing: 8) {
          Text(context.inputText ?? "")
            .foregroundStyle(.secondary)
          if let translation {
            Text(translation).font(.headline)
          } else {
            ProgressView("Translating…")
          }
          if context.allowsReplacement {
            Button("Replace with Translation") {
              context.finish(translation: AttributedString(translation ?? ""))
            }
            .disabled(translation == nil)
          }
        }
        .padding()
        .task {
          // Work off the main actor, then back on it to show the result.
          let text = String((context.inputText ?? "").characters)
          translation = await Task.detached { text.uppercased() }.value
        }
      }
    }

    """
  }

  var swiftMakefile: String {
    """
    # make           builds build/\(name).translationprovider
    # make install   installs it for you with `translation-host install` (validated first);
    #                TRANSLATION_HOST=/path/to/translation-host names another one
    NAME   := \(name)
    BUNDLE := build/$(NAME).translationprovider
    SWIFT  ?= swift
    CONFIG ?= release
    TRANSLATION_HOST ?= $(shell command -v translation-host 2>/dev/null || echo '\(hostExecutable)')

    .PHONY: all bundle install clean

    all: bundle

    bundle:
    \t$(SWIFT) build -c $(CONFIG) --product $(NAME)
    \trm -rf $(BUNDLE) && install -d -m 0755 $(BUNDLE)
    \tinstall -m 0644 Info.plist $(NAME).entitlements $(BUNDLE)/
    \tinstall -m 0755 "$$($(SWIFT) build -c $(CONFIG) --show-bin-path)/lib$(NAME).so" $(BUNDLE)/lib$(NAME).so
    \tfor folder in *.lproj; do [ ! -d "$$folder" ] || { install -d -m 0755 $(BUNDLE)/$$folder && install -m 0644 $$folder/* $(BUNDLE)/$$folder/; } || exit 1; done

    install: bundle
    \t$(TRANSLATION_HOST) install $(BUNDLE)

    clean:
    \trm -rf build .build

    """
  }

  // MARK: C

  var cSource: String {
    """
    /*
     * \(name): a translation provider in C against ABI 2 (translation_provider.h,
     * Documentation/ABI.md). It upper-cases ASCII letters: put your translation
     * in translate_text. Build with `make` (pkg-config finds the header).
     */
    #include <translation_provider.h>

    #include <stdio.h>
    #include <stdlib.h>
    #include <string.h>

    /* The instance: create returns it, every call gets it back as `self`. */
    struct tp_provider {
      const tp_host *host; /* borrowed from create until destroy */
    };

    /* The translation of `text`, in a new buffer of text.length bytes. */
    static char *translate_text(tp_string text) {
      char *out = malloc(text.length + 1);
      if (!out) return NULL;
      for (size_t i = 0; i < text.length; i++) {
        char c = text.data[i];
        out[i] = (c >= 'a' && c <= 'z') ? (char)(c - 'a' + 'A') : c;
      }
      out[text.length] = '\\0';
      return out;
    }

    /* ---- JSON: every string from outside is escaped before it enters the view tree. ---- */

    typedef struct buffer {
      char *data;
      size_t length, capacity;
    } buffer;

    static int append(buffer *b, const char *bytes, size_t length) {
      if (b->length + length + 1 > b->capacity) {
        size_t capacity = (b->length + length + 1) * 2;
        char *grown = realloc(b->data, capacity);
        if (!grown) return 0;
        b->data = grown;
        b->capacity = capacity;
      }
      memcpy(b->data + b->length, bytes, length);
      b->length += length;
      return 1;
    }

    static int append_text(buffer *b, const char *text) { return append(b, text, strlen(text)); }

    /* A JSON string: quotes, backslashes and control characters (NUL too) escaped. */
    static int append_json_string(buffer *b, const char *text, size_t length) {
      int ok = append(b, "\\"", 1);
      for (size_t i = 0; ok && i < length; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == '"' || c == '\\\\') {
          char escaped[2] = {'\\\\', (char)c};
          ok = append(b, escaped, 2);
        } else if (c < 0x20) {
          char escaped[7];
          snprintf(escaped, sizeof escaped, "\\\\u%04x", c);
          ok = append(b, escaped, 6);
        } else {
          ok = append(b, (const char *)&c, 1);
        }
      }
      return ok && append(b, "\\"", 1);
    }

    /* ---- The selected-text scene. ---- */

    typedef struct scene_state {
      tp_scene scene;            /* first, so a tp_scene * is a scene_state * */
      const tp_context *context; /* borrowed until destroy */
      char *translation;         /* NULL until "Translate" is pressed */
      size_t translation_length; /* bytes: text may hold NUL, so never strlen */
      buffer json;               /* the last rendering, valid until the next call */
    } scene_state;

    static tp_status render(const tp_scene *scene, tp_string *out_json) {
      scene_state *s = (scene_state *)scene;
      const tp_context *context = s->context;
      buffer *b = &s->json;
      b->length = 0;
      int ok = append_text(b, "{\\"version\\":1,\\"root\\":{\\"type\\":\\"vstack\\",\\"alignment\\":\\"leading\\",\\"children\\":[");
      ok = ok && append_text(b, "{\\"type\\":\\"text\\",\\"text\\":");
      ok = ok && append_json_string(b, context->input_text.data, context->has_input_text ? context->input_text.length : 0);
      ok = ok && append_text(b, "},");
      if (s->translation) {
        ok = ok && append_text(b, "{\\"type\\":\\"text\\",\\"style\\":{\\"bold\\":true},\\"text\\":");
        ok = ok && append_json_string(b, s->translation, s->translation_length);
        ok = ok && append_text(b, "},");
      }
      ok = ok && append_text(b, "{\\"type\\":\\"button\\",\\"id\\":\\"translate\\",\\"label\\":{\\"type\\":\\"text\\",\\"text\\":\\"Translate\\"}},");
      ok = ok && append_text(b, "{\\"type\\":\\"button\\",\\"id\\":\\"replace\\",\\"enabled\\":");
      ok = ok && append_text(b, context->allows_replacement && s->translation ? "true" : "false");
      ok = ok && append_text(b, ",\\"label\\":{\\"type\\":\\"text\\",\\"text\\":\\"Replace with Translation\\"}}]}}");
      if (!ok) return TP_STATUS_FAILED;
      *out_json = (tp_string){b->data, b->length};
      return TP_STATUS_OK;
    }

    static tp_status perform_action(const tp_scene *scene, const char *id) {
      scene_state *s = (scene_state *)scene;
      if (strcmp(id, "translate") == 0) {
        tp_string none = {"", 0};
        tp_string input = s->context->has_input_text ? s->context->input_text : none;
        char *translation = translate_text(input);
        if (!translation) return TP_STATUS_FAILED;
        free(s->translation);
        s->translation = translation;
        s->translation_length = input.length;
        return TP_STATUS_OK;
      }
      if (strcmp(id, "replace") == 0 && s->context->allows_replacement && s->translation) {
        tp_string translation = {s->translation, s->translation_length};
        s->context->finish(s->context, &translation);
        return TP_STATUS_OK;
      }
      return TP_STATUS_NOT_FOUND;
    }

    static tp_status set_text(const tp_scene *scene, const char *id, tp_string value) {
      (void)scene; (void)id; (void)value;
      return TP_STATUS_NOT_FOUND; /* no text fields */
    }

    static void destroy_scene(const tp_scene *scene) {
      scene_state *s = (scene_state *)scene;
      free(s->translation);
      free(s->json.data);
      free(s);
    }

    static const tp_scene *create_scene(tp_provider *self, const tp_context *context) {
      (void)self;
      scene_state *s = calloc(1, sizeof *s);
      if (!s) return NULL;
      s->scene = (tp_scene){sizeof(tp_scene), s, render, perform_action, set_text, destroy_scene};
      s->context = context;
      return &s->scene;
    }

    static const tp_selected_text_scene_factory factory = {sizeof factory, create_scene};

    /* ---- Headless translation. ---- */

    static tp_status translate(tp_provider *self, const char *source, const char *target, const tp_string *texts,
                               size_t count, const tp_translation_sink *sink, tp_string *out_message) {
      (void)self;
      static const char only[] = "\(name) translates only from 'en' to 'en-x-upper'";
      if (strcmp(source, "en") != 0 || strcmp(target, "en-x-upper") != 0) {
        *out_message = (tp_string){only, sizeof only - 1};
        return TP_STATUS_UNSUPPORTED_LANGUAGE_PAIRING;
      }
      for (size_t i = 0; i < count; i++) {
        char *out = translate_text(texts[i]);
        if (!out) return TP_STATUS_FAILED;
        sink->translation(sink, i, (tp_string){out, texts[i].length});
        free(out);
      }
      return TP_STATUS_OK;
    }

    static tp_status languages(tp_provider *self, const tp_language_sink *sink) {
      (void)self;
      sink->pair(sink, "en", "en-x-upper", TP_AVAILABILITY_INSTALLED, (tp_string){NULL, 0});
      return TP_STATUS_OK;
    }

    static const tp_translator translator = {sizeof translator, translate, languages};

    /* ---- The entry table. ---- */

    static tp_provider *create(const tp_host *host) {
      tp_provider *self = calloc(1, sizeof *self);
      if (!self) return NULL;
      self->host = host;
      return self;
    }

    static void destroy(tp_provider *self) { free(self); }

    static const void *get_capability(tp_provider *self, const char *id) {
      (void)self;
      if (strcmp(id, TP_CAPABILITY_SELECTED_TEXT_SCENE) == 0) return &factory;
      if (strcmp(id, TP_CAPABILITY_TRANSLATE) == 0) return &translator;
      return NULL;
    }

    static const tp_entry entry = {sizeof(tp_entry), TP_ABI_VERSION_MAJOR, TP_ABI_VERSION_MINOR, create, destroy,
                                   get_capability};

    TP_EXPORT const tp_entry *translation_provider_entry_v2(void) { return &entry; }

    """
  }

  var cMakefile: String {
    """
    # make           builds build/\(name).translationprovider
    # make install   installs it for you with `translation-host install` (validated first);
    #                TRANSLATION_HOST=/path/to/translation-host names another one
    # The ABI header comes from pkg-config (translation-provider.pc, which
    # translation-host's `make install` puts in <prefix>/lib/pkgconfig). For a
    # prefix pkg-config does not search, set PKG_CONFIG_PATH=<prefix>/lib/pkgconfig;
    # for a staged install (make install DESTDIR=<root>), also
    # PKG_CONFIG_SYSROOT_DIR=<root>, so that the header is found under <root>.
    NAME   := \(name)
    BUNDLE := build/$(NAME).translationprovider
    CC     ?= cc
    CFLAGS ?= -O2
    TRANSLATION_HOST ?= $(shell command -v translation-host 2>/dev/null || echo '\(hostExecutable)')
    PROVIDER_CFLAGS := $(shell pkg-config --cflags translation-provider)
    ifneq ($(shell pkg-config --exists translation-provider && echo yes),yes)
    $(error pkg-config does not know translation-provider: run `make install` in translation-host, or set PKG_CONFIG_PATH to its <prefix>/lib/pkgconfig (and PKG_CONFIG_SYSROOT_DIR to <root> after `make install DESTDIR=<root>`))
    endif

    .PHONY: all bundle install clean

    all: bundle

    lib$(NAME).so: \(name.lowercased()).c
    \t$(CC) -std=c11 -Wall -Wextra $(CFLAGS) $(PROVIDER_CFLAGS) -shared -fPIC -fvisibility=hidden $< -o $@

    bundle: lib$(NAME).so
    \trm -rf $(BUNDLE) && install -d -m 0755 $(BUNDLE)
    \tinstall -m 0644 Info.plist $(NAME).entitlements $(BUNDLE)/
    \tinstall -m 0755 lib$(NAME).so $(BUNDLE)/lib$(NAME).so

    install: bundle
    \t$(TRANSLATION_HOST) install $(BUNDLE)

    clean:
    \trm -rf build lib$(NAME).so

    """
  }
}

/// A provider template that cannot be written.
package enum TemplateError: HostErrorConvertible, Equatable {
  /// The name is not a type name.
  case invalidName(String)
  /// The folder exists and is not empty.
  case folderNotEmpty(String)
  /// A file could not be written.
  case cannotWrite(String, reason: String)

  package var description: String {
    switch self {
    case .invalidName(let name):
      "'\(name)' cannot name a provider: use letters and digits, a letter first (it names the library, the bundle and the Swift types)"
    case .folderNotEmpty(let path):
      "\(path) exists and is not empty; pick another folder or remove it"
    case .cannotWrite(let path, let reason):
      "cannot write \(path): \(reason)"
    }
  }

  package var hostError: HostError {
    switch self {
    case .invalidName: HostError(.usage, description)
    case .folderNotEmpty, .cannotWrite: HostError(.failure, description)
    }
  }
}

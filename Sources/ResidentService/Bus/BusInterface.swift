/// The names of the service's D-Bus interface, and its introspection data.
///
/// `Packaging/dbus/org.translationhost.Translation1.xml` is the documented
/// copy that `make install` installs; the D-Bus tests check that the
/// service introspects exactly as that file says.
enum BusInterface {
  static let name = "org.translationhost.Translation1"
  static let objectPath = "/org/translationhost/Translation1"
  /// Where its named errors live: `<errorPrefix>.UnsupportedLanguagePairing`, ….
  static let errorPrefix = name + ".Error"
  /// The interface's `version` property: 2 since `Present` returns a request object.
  static let version: UInt32 = 2

  /// The interface as GDBus reads it (`g_dbus_node_info_new_for_xml`).
  static let introspection = """
    <node>
      <interface name="org.translationhost.Translation1">
        <method name="Translate">
          <arg name="texts" type="as" direction="in"/>
          <arg name="source" type="s" direction="in"/>
          <arg name="target" type="s" direction="in"/>
          <arg name="provider" type="s" direction="in"/>
          <arg name="translations" type="as" direction="out"/>
        </method>
        <method name="TranslateRequest">
          <arg name="texts" type="as" direction="in"/>
          <arg name="source" type="s" direction="in"/>
          <arg name="target" type="s" direction="in"/>
          <arg name="provider" type="s" direction="in"/>
          <arg name="request_id" type="s" direction="in"/>
          <arg name="translations" type="as" direction="out"/>
        </method>
        <method name="CancelTranslate">
          <arg name="request_id" type="s" direction="in"/>
        </method>
        <method name="Languages">
          <arg name="provider" type="s" direction="in"/>
          <arg name="pairs" type="a(sss)" direction="out"/>
        </method>
        <method name="Detect">
          <arg name="text" type="s" direction="in"/>
          <arg name="tag" type="s" direction="out"/>
          <arg name="confidence" type="d" direction="out"/>
          <arg name="reliable" type="b" direction="out"/>
        </method>
        <method name="Present">
          <arg name="parent_window" type="s" direction="in"/>
          <arg name="text" type="s" direction="in"/>
          <arg name="options" type="a{sv}" direction="in"/>
          <arg name="handle" type="o" direction="out"/>
        </method>
        <property name="DefaultProvider" type="s" access="read"/>
        <property name="Providers" type="a(sss)" access="read"/>
        <property name="version" type="u" access="read">
          <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="const"/>
        </property>
      </interface>
    </node>
    """
}

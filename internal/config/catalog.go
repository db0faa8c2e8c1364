package config

// Catalog is what the load needs from the generated catalog (zz_generated),
// which imports this package and so cannot be imported by it. As database/sql
// drivers do, the generated package registers itself from an init func:
// importing it, as every program that loads a config does, is enough.
type Catalog struct {
	// ApplyDefaults fills the defaults compiled from the `default` tags and
	// the descriptors' namespaces.
	ApplyDefaults func(c *Config)
	// Check reports through v what the catalog's tables find wrong in c, a
	// config whose defaults are applied and whose contract rules are checked
	// (v holds their problems).
	Check func(v *Validator, c *Config)
	// LoginHostnames are the hostnames, in c, of the login pages of the
	// enabled services (the descriptors' logins): the cluster Gateway
	// serves them over HTTPS alone.
	LoginHostnames func(c *Config) []string
}

// catalog is the registered catalog, nil until zz_generated's init.
var catalog *Catalog

// RegisterCatalog makes cat the catalog of every load. It is called once,
// from the init func of zz_generated; a second call or a missing func is a
// programming error and panics.
func RegisterCatalog(cat Catalog) {
	if catalog != nil {
		panic("config: RegisterCatalog called twice")
	}
	if cat.ApplyDefaults == nil || cat.Check == nil || cat.LoginHostnames == nil {
		panic("config: RegisterCatalog: a func of the catalog is nil")
	}
	catalog = &cat
}

// registered returns the registered catalog, and panics without one: a
// program that loads a config must import the generated catalog.
func registered() *Catalog {
	if catalog == nil {
		panic(`config: no catalog registered: the program loads a config without importing the generated catalog; import _ "github.com/opencenter-dev/opencenter/zz_generated"`)
	}
	return catalog
}

package config

// ExampleApp is an example web application, published through the cluster
// Gateway behind its admin login.
type ExampleApp struct {
	Sourced
	// Hostname is the application's external DNS name, published through the cluster Gateway over HTTPS alone (plain HTTP is redirected), since its page asks for the admin login; empty keeps it cluster-internal.
	Hostname string `json:"hostname,omitempty" format:"dns-subdomain"`
	// Replicas is the number of the application's pods.
	Replicas *int `json:"replicas,omitempty" default:"1"`
	// Theme is the colour scheme of the application's pages.
	Theme ExampleAppTheme `json:"theme,omitempty" default:"light"`
	// AdminExistingSecret names an existing Secret in example-app's namespace holding the admin password under the key password, instead of the one rendered from secrets.services.example-app.
	AdminExistingSecret string `json:"admin_existing_secret,omitempty" format:"dns-subdomain"`
}

// ExampleAppTheme is the colour scheme of example-app's pages.
type ExampleAppTheme string

// The colour schemes example-app has.
const (
	// ExampleAppThemeLight is dark text on a light background.
	ExampleAppThemeLight ExampleAppTheme = "light"
	// ExampleAppThemeDark is light text on a dark background.
	ExampleAppThemeDark ExampleAppTheme = "dark"
)

// ExampleAppSecrets is example-app's admin password.
type ExampleAppSecrets struct {
	// AdminPassword is the password of the application's admin user.
	AdminPassword string `json:"admin_password,omitempty" required_when:"enabled,!admin_existing_secret"`
}

// Validate holds the hostname to a listener of the cluster Gateway that
// serves it over HTTPS (its page asks for a login), and the admin password
// to one place.
func (s *ExampleApp) Validate(v *Validator, path string, c *Config) {
	v.routeHostname(path, "hostname", s.Hostname, published{svc: "example-app"}, c)
	var password string
	if sec := c.Secrets.Services.ExampleApp; sec != nil {
		password = sec.AdminPassword
	}
	v.existingSecret(path+".admin_existing_secret", s.AdminExistingSecret, "secrets.services.example-app",
		map[string]string{"admin_password": password})
}

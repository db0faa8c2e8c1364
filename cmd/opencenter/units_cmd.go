package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/plan"
	generated "github.com/opencenter-dev/opencenter/zz_generated"
)

// UnitsCmd lists the overlay units.
type UnitsCmd struct {
	Config   string `placeholder:"FILE" type:"path" help:"Show whether each unit is active for this config, and why not."`
	RepoFlag `embed:""`
	Output   string `short:"o" enum:"text,json" default:"text" help:"Output format: text or json."`
}

type unitJSON struct {
	Name      string   `json:"name"`
	Layer     string   `json:"layer"`
	Gate      string   `json:"gate,omitempty"`
	Requires  []string `json:"requires,omitempty"`
	Sources   []string `json:"sources"`
	FluxUnits []string `json:"flux_units"`
	Active    *bool    `json:"active,omitempty"`
	Reason    string   `json:"reason,omitempty"`
	// AdoptionMode is the service's adoption_mode, with a config.
	AdoptionMode string `json:"adoption_mode,omitempty"`
}

// Run prints every unit, its layer, sources and Flux units, and with a config its status.
func (c *UnitsCmd) Run(s *Streams) error {
	var status []plan.UnitStatus
	var cfg *config.Config
	if c.Config == "" && c.Repo != "" {
		// --repo alone: the status for the config at its root.
		name, _, err := readConfig(c.Repo, "")
		if err != nil {
			return err
		}
		c.Config = name
	}
	if c.Config != "" {
		f, err := config.Load(c.Config, config.LoadOptions{AllowLocked: true})
		if err != nil {
			return badInput(err)
		}
		status = plan.Units(f)
		cfg = f.Config
	}
	var rows []unitJSON
	for i := range generated.Units {
		u := &generated.Units[i]
		r := unitJSON{Name: u.Name, Layer: string(u.Layer), Gate: gateText(u), Requires: u.Requires, Sources: []string{}, FluxUnits: []string{}}
		for _, src := range u.Sources {
			r.Sources = append(r.Sources, src.Name)
		}
		for _, fu := range u.FluxUnits {
			r.FluxUnits = append(r.FluxUnits, fu.Name)
		}
		if status != nil {
			active := status[i].Active
			r.Active, r.Reason = &active, status[i].Reason
			if u.Common != nil {
				if sc := u.Common(cfg); sc != nil && sc.Enabled {
					r.AdoptionMode = string(sc.AdoptionMode)
				}
			}
		}
		rows = append(rows, r)
	}
	if c.Output == "json" {
		enc := json.NewEncoder(s.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	tw := tabwriter.NewWriter(s.Out, 0, 4, 2, ' ', 0)
	header := "UNIT\tLAYER\tREQUIRES\tSOURCES\tFLUX UNITS"
	if status != nil {
		header += "\tSTATUS"
	}
	fmt.Fprintln(tw, header)
	for _, r := range rows {
		line := fmt.Sprintf("%s\t%s\t%s\t%s\t%s", r.Name, r.Layer, list(r.Requires), list(r.Sources), list(r.FluxUnits))
		if r.Active != nil {
			st := "active"
			if m := modeNote[config.AdoptionMode(r.AdoptionMode)]; *r.Active && m != "" {
				st += " (adoption_mode " + r.AdoptionMode + ": " + m + ")"
			}
			if !*r.Active {
				st = "inactive: " + r.Reason
			}
			line += "\t" + st
		}
		fmt.Fprintln(tw, line)
	}
	return tw.Flush()
}

// modeNote says what an adoption mode other than managed does to an
// active unit's Flux units.
var modeNote = map[config.AdoptionMode]string{
	config.AdoptionSync:     "applied without force",
	config.AdoptionDeferred: "suspended",
	config.AdoptionTakeover: "applied with force",
}

func gateText(u *catalog.Unit) string {
	if len(u.ActiveWith) > 0 {
		return "active with " + strings.Join(u.ActiveWith, ", ")
	}
	return u.Gate.Text
}

func list(items []string) string {
	if len(items) == 0 {
		return "-"
	}
	return strings.Join(items, ",")
}

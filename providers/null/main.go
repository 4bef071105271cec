// The kit's stand-in for hashicorp/null: null_resource and the null_data_source data
// source, with the schema and behaviour the Terraform Registry documents for the null
// provider 3.x (https://registry.terraform.io/providers/hashicorp/null/latest/docs).
//
// Written here because the Go module proxy serves no release of hashicorp/null (its tags
// past v1 are not Go module versions, and no revision of a release is served), so the
// provider cannot be built into the offline mirror the way hashicorp/random is.
package main

import (
	"context"
	"log"
	"math/rand/v2"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

type nullProvider struct{}

func (p *nullProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "null"
}

func (p *nullProvider) Schema(_ context.Context, _ provider.SchemaRequest, _ *provider.SchemaResponse) {
}

func (p *nullProvider) Configure(_ context.Context, _ provider.ConfigureRequest, _ *provider.ConfigureResponse) {
}

func (p *nullProvider) Resources(_ context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return &nullResource{} }}
}

func (p *nullProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{func() datasource.DataSource { return &nullDataSource{} }}
}

// null_resource: does nothing; a change of `triggers` replaces it (its provisioners run
// again), and its id is a random number chosen at creation.
type nullResource struct{}

type resourceModel struct {
	ID       types.String `tfsdk:"id"`
	Triggers types.Map    `tfsdk:"triggers"`
}

func (r *nullResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_resource"
}

func (r *nullResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = rschema.Schema{Attributes: map[string]rschema.Attribute{
		"triggers": rschema.MapAttribute{
			ElementType:   types.StringType,
			Optional:      true,
			PlanModifiers: []planmodifier.Map{mapplanmodifier.RequiresReplace()},
		},
		"id": rschema.StringAttribute{
			Computed:      true,
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
	}}
}

func (r *nullResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var model resourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &model)...)
	if resp.Diagnostics.HasError() {
		return
	}
	model.ID = types.StringValue(strconv.FormatInt(rand.Int64(), 10))
	resp.Diagnostics.Append(resp.State.Set(ctx, &model)...)
}

func (r *nullResource) Read(_ context.Context, _ resource.ReadRequest, _ *resource.ReadResponse) {
}

func (r *nullResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var model resourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &model)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &model)...)
}

func (r *nullResource) Delete(_ context.Context, _ resource.DeleteRequest, _ *resource.DeleteResponse) {
}

// null_data_source (deprecated upstream, still common): `outputs` repeats `inputs`,
// `random` is a new random number on every read.
type nullDataSource struct{}

type dataModel struct {
	ID                 types.String `tfsdk:"id"`
	Inputs             types.Map    `tfsdk:"inputs"`
	Outputs            types.Map    `tfsdk:"outputs"`
	Random             types.String `tfsdk:"random"`
	HasComputedDefault types.String `tfsdk:"has_computed_default"`
}

func (d *nullDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_data_source"
}

func (d *nullDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = dschema.Schema{
		DeprecationMessage: "The null_data_source was historically used to construct intermediate values " +
			"to re-use elsewhere in configuration; the same can now be achieved using locals",
		Attributes: map[string]dschema.Attribute{
			"inputs":               dschema.MapAttribute{ElementType: types.StringType, Optional: true},
			"outputs":              dschema.MapAttribute{ElementType: types.StringType, Computed: true},
			"random":               dschema.StringAttribute{Computed: true},
			"has_computed_default": dschema.StringAttribute{Optional: true, Computed: true},
			"id":                   dschema.StringAttribute{Computed: true},
		},
	}
}

func (d *nullDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var model dataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &model)...)
	if resp.Diagnostics.HasError() {
		return
	}
	outputs := model.Inputs
	if outputs.IsNull() {
		outputs = types.MapValueMust(types.StringType, nil)
	}
	model.Outputs = outputs
	model.Random = types.StringValue(strconv.FormatInt(rand.Int64(), 10))
	if model.HasComputedDefault.IsNull() || model.HasComputedDefault.IsUnknown() {
		model.HasComputedDefault = types.StringValue("default")
	}
	model.ID = types.StringValue("static")
	resp.Diagnostics.Append(resp.State.Set(ctx, &model)...)
}

func main() {
	err := providerserver.Serve(context.Background(), func() provider.Provider { return &nullProvider{} },
		providerserver.ServeOpts{Address: "registry.terraform.io/hashicorp/null", ProtocolVersion: 5})
	if err != nil {
		log.Fatal(err)
	}
}

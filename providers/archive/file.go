package main

import (
	"context"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// archive_file: exactly one of source_file, source_dir, source_content (with
// source_content_filename) or `source` blocks goes into the archive at output_path.
type fileDataSource struct{}

type sourceModel struct {
	Content  types.String `tfsdk:"content"`
	Filename types.String `tfsdk:"filename"`
}

type fileModel struct {
	ID                        types.String  `tfsdk:"id"`
	Type                      types.String  `tfsdk:"type"`
	Source                    []sourceModel `tfsdk:"source"`
	SourceContent             types.String  `tfsdk:"source_content"`
	SourceContentFilename     types.String  `tfsdk:"source_content_filename"`
	SourceFile                types.String  `tfsdk:"source_file"`
	SourceDir                 types.String  `tfsdk:"source_dir"`
	Excludes                  types.Set     `tfsdk:"excludes"`
	ExcludeSymlinkDirectories types.Bool    `tfsdk:"exclude_symlink_directories"`
	OutputPath                types.String  `tfsdk:"output_path"`
	OutputFileMode            types.String  `tfsdk:"output_file_mode"`
	OutputSize                types.Int64   `tfsdk:"output_size"`
	OutputSha                 types.String  `tfsdk:"output_sha"`
	OutputSha256              types.String  `tfsdk:"output_sha256"`
	OutputBase64Sha256        types.String  `tfsdk:"output_base64sha256"`
	OutputSha512              types.String  `tfsdk:"output_sha512"`
	OutputBase64Sha512        types.String  `tfsdk:"output_base64sha512"`
	OutputMd5                 types.String  `tfsdk:"output_md5"`
}

func (d *fileDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_file"
}

func (d *fileDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	optional := func() schema.StringAttribute { return schema.StringAttribute{Optional: true} }
	computed := func() schema.StringAttribute { return schema.StringAttribute{Computed: true} }
	resp.Schema = schema.Schema{
		Attributes: map[string]schema.Attribute{
			"id":                          computed(),
			"type":                        schema.StringAttribute{Required: true},
			"source_content":              optional(),
			"source_content_filename":     optional(),
			"source_file":                 optional(),
			"source_dir":                  optional(),
			"excludes":                    schema.SetAttribute{ElementType: types.StringType, Optional: true},
			"exclude_symlink_directories": schema.BoolAttribute{Optional: true},
			"output_path":                 schema.StringAttribute{Required: true},
			"output_file_mode":            optional(),
			"output_size":                 schema.Int64Attribute{Computed: true},
			"output_sha":                  computed(),
			"output_sha256":               computed(),
			"output_base64sha256":         computed(),
			"output_sha512":               computed(),
			"output_base64sha512":         computed(),
			"output_md5":                  computed(),
		},
		Blocks: map[string]schema.Block{
			"source": schema.SetNestedBlock{NestedObject: schema.NestedBlockObject{
				Attributes: map[string]schema.Attribute{
					"content":  schema.StringAttribute{Required: true},
					"filename": schema.StringAttribute{Required: true},
				},
			}},
		},
	}
}

func (d *fileDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var model fileModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &model)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var excludes []string
	if !model.Excludes.IsNull() {
		resp.Diagnostics.Append(model.Excludes.ElementsAs(ctx, &excludes, false)...)
	}
	spec, err := specOf(&model, excludes)
	if err == nil {
		err = spec.write()
	}
	if err != nil {
		resp.Diagnostics.AddError("Archive creation error", err.Error())
		return
	}
	if err := digests(&model); err != nil {
		resp.Diagnostics.AddError("Archive output error", err.Error())
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &model)...)
}

// digests fills the computed attributes from the archive written at output_path.
func digests(model *fileModel) error {
	data, err := os.ReadFile(model.OutputPath.ValueString())
	if err != nil {
		return fmt.Errorf("could not read the archive %q: %w", model.OutputPath.ValueString(), err)
	}
	s1, s256, s512, m5 := sha1.Sum(data), sha256.Sum256(data), sha512.Sum512(data), md5.Sum(data)
	model.OutputSize = types.Int64Value(int64(len(data)))
	model.OutputSha = types.StringValue(hex.EncodeToString(s1[:]))
	model.OutputSha256 = types.StringValue(hex.EncodeToString(s256[:]))
	model.OutputBase64Sha256 = types.StringValue(base64.StdEncoding.EncodeToString(s256[:]))
	model.OutputSha512 = types.StringValue(hex.EncodeToString(s512[:]))
	model.OutputBase64Sha512 = types.StringValue(base64.StdEncoding.EncodeToString(s512[:]))
	model.OutputMd5 = types.StringValue(hex.EncodeToString(m5[:]))
	model.ID = model.OutputSha
	return nil
}

using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;
using PerfService.Data;

#nullable disable

namespace PerfService.Migrations.Migrations
{
    /// <inheritdoc />
    /// <summary>
    /// Two saved detector states per series, so a point that arrives out of commit order replays its series from the
    /// last one before it instead of from its first point. The model snapshot (PerfDbContextModelSnapshot) has the two
    /// columns; the migration carries no copy of the whole model (no Designer file), only the attributes one would.
    /// </summary>
    [DbContext(typeof(PerfDbContext))]
    [Migration("20261128202545_DetectorCheckpoints")]
    public partial class DetectorCheckpoints : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.AddColumn<byte[]>(
                name: "checkpoint",
                table: "series_states",
                type: "bytea",
                nullable: true);

            migrationBuilder.AddColumn<byte[]>(
                name: "previous_checkpoint",
                table: "series_states",
                type: "bytea",
                nullable: true);
            // Saved detector states, ~1.7 KB of float8 each: pglz cannot shrink them, so they are stored out of line
            // without trying (as the artifacts' gzip), and the many updates that keep them keep the stored value.
            migrationBuilder.Sql(
                "ALTER TABLE series_states ALTER COLUMN checkpoint SET STORAGE EXTERNAL, ALTER COLUMN previous_checkpoint SET STORAGE EXTERNAL"
            );
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropColumn(
                name: "checkpoint",
                table: "series_states");

            migrationBuilder.DropColumn(
                name: "previous_checkpoint",
                table: "series_states");
        }
    }
}

using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;
using PerfService.Data;

#nullable disable

namespace PerfService.Migrations.Migrations
{
    /// <inheritdoc />
    /// <summary>
    /// Two costs of every stored run that bought nothing, seen with pg_stat_statements and perf under the 50-agent load
    /// test. The reference check on results planned its three lookups anew on most calls (a custom plan for each array
    /// of ids); one generic plan, an index probe per distinct id, suits every size. And artifacts are gzip already, so
    /// PostgreSQL's own compression was tried on each and given up: they are now stored as they come.
    /// It changes no entity, so it has no model snapshot of its own (no Designer file): the attributes that one would
    /// carry are here.
    /// </summary>
    [DbContext(typeof(PerfDbContext))]
    [Migration("20261128164245_RunWritesPlanAndStorage")]
    public partial class RunWritesPlanAndStorage : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.Sql("ALTER FUNCTION results_check_references() SET plan_cache_mode = force_generic_plan;");
            migrationBuilder.Sql("ALTER TABLE artifacts ALTER COLUMN content_gzip SET STORAGE EXTERNAL;");
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.Sql("ALTER FUNCTION results_check_references() RESET plan_cache_mode;");
            migrationBuilder.Sql("ALTER TABLE artifacts ALTER COLUMN content_gzip SET STORAGE EXTENDED;");
        }
    }
}

using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace PerfService.Migrations.Migrations
{
    /// <inheritdoc />
    /// <summary>
    /// Verdicts keep the margin their interval had to lie within for "no change" apart from the threshold a regression
    /// had to clear. Before this change one figure served both, so earlier verdicts get their threshold as their margin.
    /// </summary>
    public partial class VerdictNoChangeMargin : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.AddColumn<double>(
                name: "no_change_margin",
                table: "verdicts",
                type: "double precision",
                nullable: false,
                defaultValue: 0.0);
            migrationBuilder.Sql("UPDATE verdicts SET no_change_margin = threshold;");
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropColumn(
                name: "no_change_margin",
                table: "verdicts");
        }
    }
}

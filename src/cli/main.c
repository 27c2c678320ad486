/*
 * main.c - the ptxjitc program: cli_main (ptxjitc.c) on the command line.
 * The Python extension links the other files of this folder without this
 * one and runs cli_main for the `ptxjitc` command a wheel installs.
 */
#include "cli.h"

int main(int argc, char **argv)
{
	return cli_main(argc, argv);
}

from chatspace.service.cli import main

main()

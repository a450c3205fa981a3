# Import packages in reverse libOrder as defined in pyqtgraph/Qt/__init__.py
from PySide2.QtTest import *
from PyQt5.QtTest import *
from PySide6.QtTest import *
from PyQt6.QtTest import *
